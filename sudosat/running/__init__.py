"""Running commands over many inputs: batches, shards, and the records,
text and pictures they write."""
