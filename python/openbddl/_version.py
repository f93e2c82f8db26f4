"""The release: the one place its number is written. The build backend
reads it for the wheel's metadata and tools/release stamps it into the
bddl binary, so a bundled engine and this client always agree."""

__version__ = "0.1.0"
