"""What the first-run tests capture before any embedding model is here: one small meeting
with a decision and an action item."""

SMALL_MEETING = """Planning sync, 2026-03-02
Attendees: Dana Shore, Ravi Patel

Dana Shore: We decided to move the launch to April because the vendor slipped.
Ravi Patel: I will draft the customer notice by Friday.
"""
