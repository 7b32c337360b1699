"""Screens over the main one, one to a module: a capture, a page (person, project,
concept), an agent run."""
