"""What the app's panes and pages show, read from the store as plain records: the UI draws
them and reads nothing itself (a worker calls these, and hands the result to the screen)."""
