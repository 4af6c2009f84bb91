"""The commands of the command line, a module each: :mod:`sudosat.cli` loads only
the one asked for (see its COMMANDS)."""
