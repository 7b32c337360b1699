"""Build the two .docx fixtures on demand (no binaries are committed).

Importing this module has no side effects; python-docx is imported only
inside the writer functions.

    from make_docx import write_teams_docx, write_notes_docx
    write_teams_docx(tmp_path / "teams.docx")
    write_notes_docx(tmp_path / "notes.docx")

The expected reading of both files is in expected.json under the keys
"teams.docx" and "notes.docx".
"""

from __future__ import annotations

from os import PathLike
from typing import Union

PathArg = Union[str, "PathLike[str]"]

# --- Teams transcript download (.docx) ---------------------------------------
# Shape of a Teams "Download as .docx" transcript: the recording name, the
# date and start time, the duration, a "started transcription" notice, then for
# each entry a paragraph "Full Name   M:SS" (three spaces) followed by a
# paragraph with the text.

TEAMS_TITLE = "Data retention policy review-20260324_100317-Meeting Recording"
TEAMS_DATE = "March 24, 2026, 10:03AM"
TEAMS_DURATION = "38m 51s"
TEAMS_STARTED = "Siobhán O'Neill started transcription"

TEAMS_TURNS = [
    (
        "Siobhán O'Neill",
        "0:04",
        "Thanks for joining. Legal asked us to finalise the data retention policy "
        "before the audit in May, so this is the last review.",
    ),
    (
        "Ines Carvalho",
        "0:19",
        "I've shared the draft. The main change is GPS traces: we keep them for "
        "90 days instead of indefinitely.",
    ),
    ("Kwame Mensah-Boateng", "0:41", "Ninety days raw, and aggregated after that?"),
    (
        "Ines Carvalho",
        "0:47",
        "Yes, aggregated to depot level, with no driver IDs. That's what legal "
        "was comfortable with.",
    ),
    (
        "Hiroshi Tanaka (Guest)",
        "2:10",
        "I'd add one thing. Drivers should be able to request their own traces. "
        "In the Netherlands the works council will ask about it.",
    ),
    ("Siobhán O'Neill", "3:38", "Good point. How hard is that for us?"),
    (
        "Kwame Mensah-Boateng",
        "4:52",
        "An export per driver is easy. Verifying who is asking is the hard part, "
        "so we'd route requests through the depot manager.",
    ),
    (
        "Anneke de Vries",
        "7:20",
        "Customers will ask whether 90 days breaks the dispute reports. Most "
        "disputes come in within 30 days, so I think we're fine.",
    ),
    ("Ines Carvalho", "8:41", "I checked: 97% of disputes last year were raised within 45 days."),
    (
        "Hiroshi Tanaka (Guest)",
        "10:02",
        "Then put that number in the policy. Auditors like a reason next to "
        "every retention period.",
    ),
    (
        "Kwame Mensah-Boateng",
        "14:20",
        "What about backups? If we delete from the database but keep backups "
        "for a year, we haven't really deleted anything.",
    ),
    (
        "Ines Carvalho",
        "14:36",
        "Backups roll over every 35 days. I'll add that sentence to the policy.",
    ),
    (
        "Siobhán O'Neill",
        "21:05",
        "Okay. Decisions: GPS traces kept 90 days raw and then aggregated, "
        "driver export requests go through depot managers, and the backup "
        "rotation is documented.",
    ),
    ("Anneke de Vries", "25:31", "I'll update the customer-facing FAQ once legal signs off."),
    ("Kwame Mensah-Boateng", "26:40", "And I'll open the ticket for the driver export."),
    (
        "Siobhán O'Neill",
        "31:52",
        "Ines, can you send the final draft to legal by Thursday? Thanks, everyone.",
    ),
]


def _save(doc, path) -> None:
    # Accept a path or a writable binary stream (e.g. io.BytesIO).
    doc.save(path if hasattr(path, "write") else str(path))


def write_teams_docx(path: PathArg) -> None:
    """Write a Teams-style transcript .docx to ``path``."""
    from docx import Document

    doc = Document()
    doc.add_paragraph(TEAMS_TITLE)
    doc.add_paragraph(TEAMS_DATE)
    doc.add_paragraph(TEAMS_DURATION)
    doc.add_paragraph(TEAMS_STARTED)
    for name, at, text in TEAMS_TURNS:
        doc.add_paragraph(f"{name}   {at}")
        doc.add_paragraph(text)
    _save(doc, path)


# --- Plain meeting notes written in Word --------------------------------------

NOTES_TITLE = "Team offsite planning"
NOTES_ATTENDEES = (
    "Attendees: Priya Shah, Dmitri Volkov, Aroha Ngata, Ines Carvalho, Anneke de Vries"
)
NOTES_SECTIONS = [
    (
        "Notes",
        [
            "Two options for the spring offsite: the Utrecht co-working space "
            "(€2,300 for two days) or the Hoek van Holland beach hotel "
            "(€3,900 incl. rooms).",
            "Most of the team prefers one overnight stay; Ines can't stay "
            "overnight and will join both days by train.",
            "Agenda ideas: roadmap for H2, a half-day hack on the driver app, "
            "and a retro on the map outage.",
            "Budget comes from the team events line, which has €4,500 left.",
        ],
    ),
    (
        "Decisions",
        [
            "Beach hotel, 23–24 April, one night.",
            "No laptops during the roadmap session.",
        ],
    ),
    (
        "Actions",
        [
            "Aroha books the hotel and the meeting room by Friday.",
            "Dmitri collects hack-day ideas in the team channel.",
            "Priya drafts the agenda and shares it next week.",
        ],
    ),
]


def write_notes_docx(path: PathArg) -> None:
    """Write a Word document of plain meeting notes to ``path``."""
    from docx import Document

    doc = Document()
    doc.add_heading(NOTES_TITLE, level=1)
    doc.add_paragraph(NOTES_ATTENDEES)
    for heading, bullets in NOTES_SECTIONS:
        doc.add_heading(heading, level=2)
        for bullet in bullets:
            doc.add_paragraph(bullet, style="List Bullet")
    _save(doc, path)


if __name__ == "__main__":  # pragma: no cover - manual use only
    import sys

    out = sys.argv[1] if len(sys.argv) > 1 else "."
    write_teams_docx(f"{out}/teams.docx")
    write_notes_docx(f"{out}/notes.docx")
