"""Why a model call failed, in words a user can act on."""


class LLMError(Exception):
    """A model call failed; nothing that depended on it was written."""


class LLMUnavailable(LLMError):
    """The provider cannot be used as configured (no key, no server, no model name)."""


class LLMTimeout(LLMError):
    """The call (with its retries) ran past its deadline."""


class LLMInvalidOutput(LLMError):
    """The model's structured output did not validate, even after one repair request."""
