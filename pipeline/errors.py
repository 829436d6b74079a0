"""Errors the pipeline raises or expects from its ports. Each message is meant for a person."""

from __future__ import annotations


class EvoNoteError(Exception):
    """Base class: the message says what went wrong and what to do."""


class InvalidPostInput(EvoNoteError):
    """The post reference or text cannot be processed as given."""


class PostUnavailable(EvoNoteError):
    """The post exists as a reference but could not be fetched (deleted, protected, ...)."""


class StorageUnavailable(EvoNoteError):
    """The database cannot take this now (locked past its wait, disk full, unreachable); nothing
    was half-written (the transaction rolled back): the same action may be tried again."""


class EpisodeNotFound(EvoNoteError):
    """No episode has this id (deleted, or never stored)."""


class LessonNotFound(EvoNoteError):
    """No lesson of the experience memory has this id."""


class DuplicateRequest(EvoNoteError):
    """A request with this key is already stored (a retried event or a double click)."""


class SourceRefused(PostUnavailable):
    """This source will not serve the post now (an API tier or quota): another source that
    reads the same site may still."""


class ModelUnavailable(EvoNoteError):
    """The model server could not be reached or refused the request."""


class ModelOutputInvalid(EvoNoteError):
    """The model's answer did not match the schema, even after one repair attempt."""


class ModelTimeout(EvoNoteError):
    """A model call ran past its time limit."""


class SearchFailed(EvoNoteError):
    """A search backend failed; the agent sees this as an observation."""


class PageUnreadable(EvoNoteError):
    """A page could not be read; the agent sees this as an observation, never cites it."""
