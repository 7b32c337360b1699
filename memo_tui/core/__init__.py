"""memo's domain: plain Python shared by the CLI and the TUI. Never imports textual."""
