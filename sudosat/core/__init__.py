"""The data model and its plain forms: a puzzle, its candidates as masks, its
errors, how it is written as text, the JSON object type, and the pen a rule draws
with (as a type only). Imports nothing else of sudosat."""
