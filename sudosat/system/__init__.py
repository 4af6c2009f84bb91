"""Processes, signals and files: the supervisor, workers, the janitor,
atomic output. Imports only :mod:`sudosat.core`."""
