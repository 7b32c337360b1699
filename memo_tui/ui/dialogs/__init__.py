"""Dialogs, one to a module: each returns a typed result and never touches the store."""

from memo_tui.ui.dialogs.approve import Approve
from memo_tui.ui.dialogs.base import Dialog
from memo_tui.ui.dialogs.capture_file import CaptureFile
from memo_tui.ui.dialogs.change_review import ChangeReview
from memo_tui.ui.dialogs.confirm import Confirm, delete_dialog
from memo_tui.ui.dialogs.error import ErrorDialog
from memo_tui.ui.dialogs.help import Help
from memo_tui.ui.dialogs.new_concept import NewConcept
from memo_tui.ui.dialogs.new_project import NewProject
from memo_tui.ui.dialogs.note_editor import NoteEditor
from memo_tui.ui.dialogs.pick_person import PickPerson
from memo_tui.ui.dialogs.rename import Rename
from memo_tui.ui.dialogs.replace import replace_dialog
from memo_tui.ui.dialogs.who_is_it import WhoIsIt

__all__ = [
    "Approve",
    "CaptureFile",
    "ChangeReview",
    "Confirm",
    "Dialog",
    "ErrorDialog",
    "Help",
    "NewConcept",
    "NewProject",
    "NoteEditor",
    "PickPerson",
    "Rename",
    "WhoIsIt",
    "delete_dialog",
    "replace_dialog",
]
