from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GameSummary(_message.Message):
    __slots__ = ("code", "name", "min_players", "max_players", "deck", "structure", "showdown", "kind")
    CODE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    STRUCTURE_FIELD_NUMBER: _ClassVar[int]
    SHOWDOWN_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    code: str
    name: str
    min_players: int
    max_players: int
    deck: str
    structure: str
    showdown: str
    kind: str
    def __init__(self, code: _Optional[str] = ..., name: _Optional[str] = ..., min_players: _Optional[int] = ..., max_players: _Optional[int] = ..., deck: _Optional[str] = ..., structure: _Optional[str] = ..., showdown: _Optional[str] = ..., kind: _Optional[str] = ...) -> None: ...

class GameForcedBets(_message.Message):
    __slots__ = ("ante", "blinds", "first_blind_on_button", "bring_in", "big_blind_ante")
    ANTE_FIELD_NUMBER: _ClassVar[int]
    BLINDS_FIELD_NUMBER: _ClassVar[int]
    FIRST_BLIND_ON_BUTTON_FIELD_NUMBER: _ClassVar[int]
    BRING_IN_FIELD_NUMBER: _ClassVar[int]
    BIG_BLIND_ANTE_FIELD_NUMBER: _ClassVar[int]
    ante: int
    blinds: _containers.RepeatedScalarFieldContainer[int]
    first_blind_on_button: bool
    bring_in: int
    big_blind_ante: int
    def __init__(self, ante: _Optional[int] = ..., blinds: _Optional[_Iterable[int]] = ..., first_blind_on_button: _Optional[bool] = ..., bring_in: _Optional[int] = ..., big_blind_ante: _Optional[int] = ...) -> None: ...

class GameGuts(_message.Message):
    __slots__ = ("rules", "cards", "down_cards", "ranking", "ranking_order", "straights_and_flushes", "deal", "last_card", "declaring", "dealer", "dealer_without_pair", "ante", "pot_rule", "worst_hand_pays", "vicious_payers", "cap", "set_aside", "nobody_in", "odd_chips")
    RULES_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    DOWN_CARDS_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    RANKING_ORDER_FIELD_NUMBER: _ClassVar[int]
    STRAIGHTS_AND_FLUSHES_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    LAST_CARD_FIELD_NUMBER: _ClassVar[int]
    DECLARING_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    DEALER_WITHOUT_PAIR_FIELD_NUMBER: _ClassVar[int]
    ANTE_FIELD_NUMBER: _ClassVar[int]
    POT_RULE_FIELD_NUMBER: _ClassVar[int]
    WORST_HAND_PAYS_FIELD_NUMBER: _ClassVar[int]
    VICIOUS_PAYERS_FIELD_NUMBER: _ClassVar[int]
    CAP_FIELD_NUMBER: _ClassVar[int]
    SET_ASIDE_FIELD_NUMBER: _ClassVar[int]
    NOBODY_IN_FIELD_NUMBER: _ClassVar[int]
    ODD_CHIPS_FIELD_NUMBER: _ClassVar[int]
    rules: _containers.RepeatedScalarFieldContainer[str]
    cards: int
    down_cards: int
    ranking: _containers.RepeatedScalarFieldContainer[str]
    ranking_order: str
    straights_and_flushes: bool
    deal: str
    last_card: str
    declaring: str
    dealer: str
    dealer_without_pair: str
    ante: int
    pot_rule: str
    worst_hand_pays: str
    vicious_payers: str
    cap: int
    set_aside: str
    nobody_in: str
    odd_chips: str
    def __init__(self, rules: _Optional[_Iterable[str]] = ..., cards: _Optional[int] = ..., down_cards: _Optional[int] = ..., ranking: _Optional[_Iterable[str]] = ..., ranking_order: _Optional[str] = ..., straights_and_flushes: _Optional[bool] = ..., deal: _Optional[str] = ..., last_card: _Optional[str] = ..., declaring: _Optional[str] = ..., dealer: _Optional[str] = ..., dealer_without_pair: _Optional[str] = ..., ante: _Optional[int] = ..., pot_rule: _Optional[str] = ..., worst_hand_pays: _Optional[str] = ..., vicious_payers: _Optional[str] = ..., cap: _Optional[int] = ..., set_aside: _Optional[str] = ..., nobody_in: _Optional[str] = ..., odd_chips: _Optional[str] = ...) -> None: ...

class Game(_message.Message):
    __slots__ = ("summary", "phases", "forced", "exhaustion", "guts")
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    PHASES_FIELD_NUMBER: _ClassVar[int]
    FORCED_FIELD_NUMBER: _ClassVar[int]
    EXHAUSTION_FIELD_NUMBER: _ClassVar[int]
    GUTS_FIELD_NUMBER: _ClassVar[int]
    summary: GameSummary
    phases: _containers.RepeatedScalarFieldContainer[str]
    forced: GameForcedBets
    exhaustion: str
    guts: GameGuts
    def __init__(self, summary: _Optional[_Union[GameSummary, _Mapping]] = ..., phases: _Optional[_Iterable[str]] = ..., forced: _Optional[_Union[GameForcedBets, _Mapping]] = ..., exhaustion: _Optional[str] = ..., guts: _Optional[_Union[GameGuts, _Mapping]] = ...) -> None: ...

class ListGamesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games",)
    GAMES_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameSummary]
    def __init__(self, games: _Optional[_Iterable[_Union[GameSummary, _Mapping]]] = ...) -> None: ...

class GetGameRequest(_message.Message):
    __slots__ = ("code",)
    CODE_FIELD_NUMBER: _ClassVar[int]
    code: str
    def __init__(self, code: _Optional[str] = ...) -> None: ...

class GetGameResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: Game
    def __init__(self, game: _Optional[_Union[Game, _Mapping]] = ...) -> None: ...

class CheckGameRequest(_message.Message):
    __slots__ = ("text",)
    TEXT_FIELD_NUMBER: _ClassVar[int]
    text: str
    def __init__(self, text: _Optional[str] = ...) -> None: ...

class CheckGameResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: Game
    def __init__(self, game: _Optional[_Union[Game, _Mapping]] = ...) -> None: ...
