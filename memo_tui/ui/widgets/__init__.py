"""The panes and the footer: what the main screen is made of, one to a module."""
