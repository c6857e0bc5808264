"""`python -m lossy` is the `lossy` command."""

from .cli import main

main()
