"""`suji teacher …`: the operator's commands for teacher accounts (nothing is mailed, so a reset is done here).

    suji teacher list                          every account: the login name, when made, last login
    suji teacher create EMAIL                  a new account (the password asked twice, or --password-stdin)
    suji teacher reset-password EMAIL          a new password: every session of the account ends, and its
                                               count of wrong passwords is cleared
    suji teacher delete EMAIL --yes            the account and every class, pupil and answer in it

They open the app's own database (SUJI_DATABASE_URL, else the instance folder's SQLite, as `suji serve` does)
and call the same transactions as the pages (suji.web.accounts.store). Exit status 0 done, 1 refused (no such
account, a weak password), 2 a bad command line.
"""

from __future__ import annotations

import argparse
import getpass
import sys

from suji.cli.common import default_language, fail
from suji.core.i18n import N_, translate

TEXT = {
    "created": N_("The account %(email)s is made."),
    "reset": N_("The password of %(email)s is changed; every browser signed in to it is logged out."),
    "deleted": N_("The account %(email)s and everything in it are deleted."),
    "no_account": N_("There is no account with the login name %(email)s."),
    "confirm": N_("Deleting an account deletes its classes, pupils and all their work. Add --yes to do it."),
    "none": N_("No teacher accounts yet."),
    "prompt": N_("New password: "),
    "prompt_again": N_("The same password again: "),
    "no_password": N_("No password was given."),
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "teacher", help="teacher accounts: list, create, reset-password, delete (for the operator)"
    )
    p.add_argument("action", choices=("list", "create", "reset-password", "delete"))
    p.add_argument("email", nargs="?", help="the account's login name (its email address)")
    p.add_argument("--password-stdin", action="store_true", help="read the new password from standard input")
    p.add_argument("--yes", action="store_true", help="with delete: yes, delete everything in the account")
    p.set_defaults(func=cmd_teacher)


def _password(args: argparse.Namespace, lang: str) -> str | None:
    if args.password_stdin:
        line = sys.stdin.readline()
        return line.rstrip("\r\n") or None
    first = getpass.getpass(translate(TEXT["prompt"], lang))
    second = getpass.getpass(translate(TEXT["prompt_again"], lang))
    return first if first == second else first + "\0mismatch"


def cmd_teacher(args: argparse.Namespace) -> int:
    from suji.web import create_app
    from suji.web.accounts import store
    from suji.web.accounts.rules import AccountError, check_new_password, clean_email
    from suji.web.models import ensure_schema

    lang = default_language()
    if args.action != "list" and not args.email:
        return fail(translate(N_("Name the account's email address."), lang))
    app = create_app()
    with app.app_context():
        ensure_schema()
        if args.action == "list":
            teachers = store.all_teachers()
            if not teachers:
                print(translate(TEXT["none"], lang))
            for t in teachers:
                last = t.last_login_at.strftime("%Y-%m-%d %H:%M") if t.last_login_at else "-"
                print(f"{t.email}\t{t.created_at:%Y-%m-%d}\t{last}")
            return 0
        try:
            email = clean_email(args.email)
            if args.action == "delete":
                teacher = store.by_email(email)
                if teacher is None:
                    print(translate(TEXT["no_account"], lang, email=email), file=sys.stderr)
                    return 1
                if not args.yes:
                    return fail(translate(TEXT["confirm"], lang))
                store.delete_teacher(teacher)
                print(translate(TEXT["deleted"], lang, email=email))
                return 0
            if args.action == "reset-password" and store.by_email(email) is None:
                print(translate(TEXT["no_account"], lang, email=email), file=sys.stderr)
                return 1
            password = _password(args, lang)
            if password is None:
                print(translate(TEXT["no_password"], lang), file=sys.stderr)
                return 1
            if "\0mismatch" in password:
                raise AccountError("password_mismatch")
            check_new_password(password, password, email)
            if args.action == "create":
                store.sign_up(email, password, password, "operator")
                print(translate(TEXT["created"], lang, email=email))
            else:
                store.reset_password(email, password)
                print(translate(TEXT["reset"], lang, email=email))
            return 0
        except AccountError as error:
            print(f"suji: {error.message(lang)}", file=sys.stderr)
            return 1
