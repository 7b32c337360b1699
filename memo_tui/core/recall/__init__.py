"""The read path: search (hybrid keyword + vector), later filters, answers and citations."""
