"""Why a source was refused, in words a user can act on."""


class CaptureRejected(Exception):
    """A source cannot be captured; the message says why and what to do."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
