"""The Textual app (panes, chat, modals). Only this package may import textual."""
