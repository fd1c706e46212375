"""Plays a short game through a client generated from the OpenAPI document alone
(openapi-python-client), against a running `gmo serve`; docs/api.md shows it.

Usage: python3 client_game.py BASE_URL GENERATED_PACKAGE_DIR

The generated package (`gmo_client`) is imported from GENERATED_PACKAGE_DIR's parent. Every answer
is parsed into the generated models; anything unexpected fails with a message.
"""

import json
import sys
from pathlib import Path


def main():
    base, package = sys.argv[1], Path(sys.argv[2])
    sys.path.insert(0, str(package.parent))
    from gmo_client import AuthenticatedClient, Client
    from gmo_client.api.games import (
        create_game,
        declare_ready,
        get_game_record,
        list_game_moves,
        load_game_preset,
        make_game_move,
        resign_game,
        toggle_game_king,
    )
    from gmo_client.models import (
        ChangeLine,
        ErrorBody,
        GamePly,
        GameRecordView,
        GameStatus,
        GameView,
        MovePlyView,
        MoveRequest,
        MoveView,
        NewGameAnswer,
        NewGameRequest,
        PresetRequest,
        Reason,
    )

    def expect(answer, kind, what):
        if not isinstance(answer, kind):
            raise SystemExit(f"{what}: expected {kind.__name__}, got {answer!r}")
        return answer

    anyone = Client(base_url=base)
    created = expect(create_game.sync(client=anyone, body=NewGameRequest()), NewGameAnswer, "create")
    game = created.id
    seats = {
        "white": AuthenticatedClient(base_url=base, token=created.seats.white.token),
        "black": AuthenticatedClient(base_url=base, token=created.seats.black.token),
    }
    print(f"game {game}: {created.game.width}x{created.game.height}, {created.game.status.value}")

    for color, king in (("white", "e1"), ("black", "e8")):
        seat = seats[color]
        expect(load_game_preset.sync(game, client=seat, body=PresetRequest(preset="default")), GameView, "preset")
        expect(toggle_game_king.sync(game, king, client=seat), GameView, "king")
        view = expect(declare_ready.sync(game, client=seat), GameView, "ready")
    if view.status != GameStatus.IN_PROGRESS:
        raise SystemExit(f"both seats ready, yet the game is {view.status.value}")

    # Black may not move first: a typed 409 with its code.
    refused = expect(
        make_game_move.sync(game, client=seats["black"], body=MoveRequest(from_="e7", to="e5")),
        ErrorBody,
        "black moving first",
    )
    print(f"black moving first: {refused.error.code.value} ({refused.error.message})")

    played = 0
    for color, square in (("white", "e2"), ("black", "e7"), ("white", "d2"), ("black", "d7")):
        seat = seats[color]
        moves = list_game_moves.sync(game, square, client=seat)
        if not moves or not all(isinstance(m, MoveView) for m in moves):
            raise SystemExit(f"no legal moves listed for {square}: {moves!r}")
        chosen = moves[-1]
        answer = expect(
            make_game_move.sync(game, client=seat, body=MoveRequest(from_=chosen.from_, to=chosen.to)),
            GamePly,
            f"{color} {chosen.from_}-{chosen.to}",
        )
        ply = expect(answer.ply, MovePlyView, "the ply")
        played += 1
        print(f"{color}: {ply.from_}-{ply.to}, landed {ply.landed}; {answer.game.moves_played} moves played")
        if answer.game.moves_played != played:
            raise SystemExit(f"expected {played} moves played, the game says {answer.game.moves_played}")

    over = expect(resign_game.sync(game, client=seats["black"]), GameView, "resign")
    if over.status != GameStatus.WHITE_WON or over.reason != Reason.RESIGNED:
        raise SystemExit(f"after Black resigned: {over.status}, {over.reason}")
    record = expect(get_game_record.sync(game, client=anyone), GameRecordView, "record")
    if len(record.plies) != played or not all(isinstance(p, MovePlyView) for p in record.plies):
        raise SystemExit(f"the record holds {record.plies!r}")
    print(f"over: {record.status.value} ({record.reason.value}), {len(record.plies)} plies recorded")

    # The stream is NDJSON, which the generator leaves out; its lines parse into the models.
    with anyone.get_httpx_client().stream("GET", f"/api/games/{game}/stream") as response:
        lines = [json.loads(line) for line in response.iter_lines() if line]
    first = GameView.from_dict(lines[0])
    changes = [ChangeLine.from_dict(line) for line in lines[1:]]
    if first.status != GameStatus.WHITE_WON or changes:
        raise SystemExit(f"the stream of a finished game: {lines!r}")
    print(f"stream: 1 line, {first.status.value}")
    print("the generated client played a whole game")


if __name__ == "__main__":
    main()
