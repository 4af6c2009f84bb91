"""The data model and its plain forms: a puzzle, its errors, how it is
written as text and drawn as a picture. Imports nothing else of sudosat."""
