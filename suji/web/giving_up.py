"""Giving up, asked once: the one spelling of the yes that the give-up forms carry, shared by the games and practice.

    tap "give up" ──drill.js asks (confirm)──▶ yes: the form goes with sure=give-up ──▶ the move is made
                  ──no script yet (a tap before it loaded)──▶ the form goes without it ──▶ the page again with
                    ?give_up=ask, whose box asks, and its "Yes" button is the form's sure=give-up

Giving up cannot be taken back (a game's target scores 0, a practice problem counts as not solved), and the button
sits right under "Answer" on a phone.
"""

from __future__ import annotations

from flask import request

ASK = "ask"  # ?give_up=ask: the page asks "give up?" itself
SURE_TO_GIVE_UP = "give-up"  # the form's `sure` once the player said yes (drill.js's dialog or the page's box)


def sure_to_give_up() -> bool:
    """Whether the give-up form carries the player's yes."""
    return SURE_TO_GIVE_UP in request.form.getlist("sure")


def asked_to_give_up() -> bool:
    """Whether the page is to ask "give up?" (?give_up=ask)."""
    return request.args.get("give_up") == ASK
