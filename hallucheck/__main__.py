"""``python -m hallucheck`` runs the command line (the same as the ``hallucheck`` script)."""

from hallucheck.cli import main

__all__: list[str] = []

if __name__ == "__main__":
    main()
