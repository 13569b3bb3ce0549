"""Talking to a running daemon from the command line, through its web companion's API.

The daemon owns the game; `navakankari takeback` and `navakankari new-game` ask it over
HTTP with the PIN from the same configuration file, so the rules about who may change a
game are the companion's, written once.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from navakankari.hal.words import N_, Phrase

from ..daemon.config import Config
from .names import local_url


MAX_ANSWER = 1 << 20
"""The most of an answer read (the companion's are a few hundred bytes)."""


class ControlError(RuntimeError):
    """The daemon could not be reached, or refused the request; the message (`problem`, a
    phrase) says which."""

    def __init__(self, problem: Phrase) -> None:
        self.problem = problem
        super().__init__(problem)


def post(config: Config, path: str, body: dict[str, Any], timeout: float = 10.0, *,
         language: str = "") -> dict[str, Any]:
    """POST `body` to the daemon's companion at `path` (e.g. "/api/takeback"); a refusal
    comes in `language` (a code the board speaks; else the board's own)."""
    if not config.web_port:
        raise ControlError(Phrase(N_("the web companion is off ({key} = 0): nothing to talk "
                                     "to"), key="web.port"))
    url = local_url(config.web_address, config.web_port, path)
    asked = f"{url}?lang={language}" if language else url
    request = urllib.request.Request(
        asked, data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", "X-Pin": config.web_pin})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            answer = json.loads(response.read(MAX_ANSWER).decode() or "{}")
    except urllib.error.HTTPError as exc:
        try:
            message = json.loads(exc.read(MAX_ANSWER).decode()).get("error", exc.reason)
        except (json.JSONDecodeError, UnicodeDecodeError, AttributeError):
            message = exc.reason
        raise ControlError(Phrase(N_("the daemon refused: {problem}"), problem=message)) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ControlError(Phrase(N_("no daemon answers at {url} ({reason}); is {command} "
                                     "running with this configuration?"), url=url,
                                  reason=reason, command="`navakankari run`")) from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        answer = None
    if not isinstance(answer, dict):
        raise ControlError(Phrase(N_("what answered at {url} is not the board's companion"),
                                  url=url))
    return answer
