"""Names to people, projects and clients: resolution by spelling and meeting context,
aliases the user confirmed, and the names still waiting for an answer."""
