"""`python -m lossy` is the `lossy` command."""

from .entry import main

if __name__ == "__main__":  # not when a process pool's worker re-imports the main module
    main()
