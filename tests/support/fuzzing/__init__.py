"""What the fuzz tests (tests/core/test_fuzz_*.py) share: hypothesis' settings for the run
(profile), the text transcripts are made of (text), transcript exports (transcripts), Word
documents (documents), mail (mail), HTML (html), dates said in words (dates), what a reader's
output promises (checks) and the replay of every crash found (replay).

The readers are fuzzed with hypothesis: a transcript file's bytes to turns (and the offline
extractor over them), mail to messages, threads and text, and dates said in words. No input
may make a reader raise anything but its refusal (CaptureRejected for a transcript,
MalformedMail for a message), run unbounded, or hand back what breaks its promises (turns'
lines inside the text, real dates, no NUL in what memo stores).
"""
