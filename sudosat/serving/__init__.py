"""``sudosat serve``: the f-puzzles solver plugin's protocol as plain data, the
answers worked out in warm worker processes, and the websocket server with its
cache, origins and page."""
