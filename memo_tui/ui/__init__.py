"""The Textual app (panes, chat, modals). Only this package may import textual.

Until the TUI lands, `memo` runs its headless commands; see README.md.
"""
