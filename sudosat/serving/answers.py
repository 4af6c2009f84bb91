"""What sudosat answers each request of the plugin (and of its own page), in a
worker process: the table of answers (:data:`ANSWERS`) above the plugin's
(:mod:`plugin_answers`) and the page's (:mod:`page_answers`).

Each command is a function of a :class:`~protocol.Job` and ``send``, which
hands one reply (its ``type`` and fields) back to the server; the last one it
sends is the request's final reply.
"""

from __future__ import annotations

from collections.abc import Callable

from sudosat.core.errors import InputError, SolverError
from sudosat.logic.path import MarksError
from sudosat.rules import load_all
from sudosat.serving import page_answers, plugin_answers
from sudosat.serving.plugin_answers import Send
from sudosat.serving.protocol import Job

load_all()  # the fork server preloads this module: every worker starts with every rule


def answer(job: Job, send: Send) -> None:
    """Every reply to ``job``; a puzzle sudosat refuses, or a solver failure, is an
    ``invalid`` reply with the one line the command line prints."""
    try:
        ANSWERS[job.command](job, send)
    except (InputError, MarksError, SolverError) as err:
        send("invalid", message=getattr(err, "message", None) or str(err))


ANSWERS: dict[str, Callable[[Job, Send], None]] = {
    # the page's
    "picture": page_answers.picture_of,
    "page": page_answers.page,
    "pagepath": page_answers.page_path,
    "marks": page_answers.marks,
    "path": page_answers.path_data,
    "read": page_answers.read,
    "link": page_answers.link,
    # the plugin's (the f-puzzles solver protocol)
    "truecandidates": plugin_answers.true_candidates,
    "solve": plugin_answers.solve,
    "check": plugin_answers.check,
    "count": plugin_answers.count,
    "estimate": plugin_answers.estimate,
    "solvepath": plugin_answers.solve_path,
    "step": plugin_answers.step,
}
"""Each command's answer: the table above the plugin's answers and the page's."""
