"""The composition root: settings, wiring, the note service, the CLI and rendering."""
