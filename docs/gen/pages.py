"""Pages written at build time (mkdocs-gen-files): each generator is a module beside this
one with a `write()` that uses mkdocs_gen_files.open."""
