import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class JobState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    JOB_STATE_UNSPECIFIED: _ClassVar[JobState]
    JOB_STATE_QUEUED: _ClassVar[JobState]
    JOB_STATE_RUNNING: _ClassVar[JobState]
    JOB_STATE_SUCCEEDED: _ClassVar[JobState]
    JOB_STATE_FAILED: _ClassVar[JobState]
    JOB_STATE_CANCELLED: _ClassVar[JobState]
JOB_STATE_UNSPECIFIED: JobState
JOB_STATE_QUEUED: JobState
JOB_STATE_RUNNING: JobState
JOB_STATE_SUCCEEDED: JobState
JOB_STATE_FAILED: JobState
JOB_STATE_CANCELLED: JobState

class JobSpec(_message.Message):
    __slots__ = ("trials", "seed", "shard_size", "precision", "priority", "bad_beat", "guts", "exhaustion", "rake")
    TRIALS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SHARD_SIZE_FIELD_NUMBER: _ClassVar[int]
    PRECISION_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    BAD_BEAT_FIELD_NUMBER: _ClassVar[int]
    GUTS_FIELD_NUMBER: _ClassVar[int]
    EXHAUSTION_FIELD_NUMBER: _ClassVar[int]
    RAKE_FIELD_NUMBER: _ClassVar[int]
    trials: int
    seed: int
    shard_size: int
    precision: float
    priority: int
    bad_beat: BadBeatSpec
    guts: GutsSpec
    exhaustion: ExhaustionSpec
    rake: RakeSpec
    def __init__(self, trials: _Optional[int] = ..., seed: _Optional[int] = ..., shard_size: _Optional[int] = ..., precision: _Optional[float] = ..., priority: _Optional[int] = ..., bad_beat: _Optional[_Union[BadBeatSpec, _Mapping]] = ..., guts: _Optional[_Union[GutsSpec, _Mapping]] = ..., exhaustion: _Optional[_Union[ExhaustionSpec, _Mapping]] = ..., rake: _Optional[_Union[RakeSpec, _Mapping]] = ...) -> None: ...

class BadBeatSpec(_message.Message):
    __slots__ = ("game", "table", "jackpot", "players", "room", "rake", "drop", "policy")
    GAME_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    JACKPOT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ROOM_FIELD_NUMBER: _ClassVar[int]
    RAKE_FIELD_NUMBER: _ClassVar[int]
    DROP_FIELD_NUMBER: _ClassVar[int]
    POLICY_FIELD_NUMBER: _ClassVar[int]
    game: str
    table: BadBeatTableSettings
    jackpot: BadBeatJackpot
    players: _containers.RepeatedCompositeFieldContainer[PlayerModel]
    room: BadBeatRoom
    rake: RakeRule
    drop: JackpotDropRule
    policy: JackpotPolicySpec
    def __init__(self, game: _Optional[str] = ..., table: _Optional[_Union[BadBeatTableSettings, _Mapping]] = ..., jackpot: _Optional[_Union[BadBeatJackpot, _Mapping]] = ..., players: _Optional[_Iterable[_Union[PlayerModel, _Mapping]]] = ..., room: _Optional[_Union[BadBeatRoom, _Mapping]] = ..., rake: _Optional[_Union[RakeRule, _Mapping]] = ..., drop: _Optional[_Union[JackpotDropRule, _Mapping]] = ..., policy: _Optional[_Union[JackpotPolicySpec, _Mapping]] = ...) -> None: ...

class BadBeatTableSettings(_message.Message):
    __slots__ = ("players", "blinds")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    BLINDS_FIELD_NUMBER: _ClassVar[int]
    players: int
    blinds: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, players: _Optional[int] = ..., blinds: _Optional[_Iterable[int]] = ...) -> None: ...

class PlayerModel(_message.Message):
    __slots__ = ("name", "seats", "vpip", "hand", "flop", "turn", "river", "chance", "bet", "open")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    VPIP_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    FLOP_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    RIVER_FIELD_NUMBER: _ClassVar[int]
    CHANCE_FIELD_NUMBER: _ClassVar[int]
    BET_FIELD_NUMBER: _ClassVar[int]
    OPEN_FIELD_NUMBER: _ClassVar[int]
    name: str
    seats: int
    vpip: float
    hand: str
    flop: str
    turn: str
    river: str
    chance: float
    bet: float
    open: float
    def __init__(self, name: _Optional[str] = ..., seats: _Optional[int] = ..., vpip: _Optional[float] = ..., hand: _Optional[str] = ..., flop: _Optional[str] = ..., turn: _Optional[str] = ..., river: _Optional[str] = ..., chance: _Optional[float] = ..., bet: _Optional[float] = ..., open: _Optional[float] = ...) -> None: ...

class BadBeatRoom(_message.Message):
    __slots__ = ("min_players", "flop_seen", "min_pot", "raked_only", "showdown_required", "tables", "hands_per_hour")
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    FLOP_SEEN_FIELD_NUMBER: _ClassVar[int]
    MIN_POT_FIELD_NUMBER: _ClassVar[int]
    RAKED_ONLY_FIELD_NUMBER: _ClassVar[int]
    SHOWDOWN_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    TABLES_FIELD_NUMBER: _ClassVar[int]
    HANDS_PER_HOUR_FIELD_NUMBER: _ClassVar[int]
    min_players: int
    flop_seen: bool
    min_pot: int
    raked_only: bool
    showdown_required: bool
    tables: int
    hands_per_hour: float
    def __init__(self, min_players: _Optional[int] = ..., flop_seen: _Optional[bool] = ..., min_pot: _Optional[int] = ..., raked_only: _Optional[bool] = ..., showdown_required: _Optional[bool] = ..., tables: _Optional[int] = ..., hands_per_hour: _Optional[float] = ...) -> None: ...

class RakeRule(_message.Message):
    __slots__ = ("percent", "caps", "no_flop_no_drop", "unit", "rounding", "increment", "per_increment")
    PERCENT_FIELD_NUMBER: _ClassVar[int]
    CAPS_FIELD_NUMBER: _ClassVar[int]
    NO_FLOP_NO_DROP_FIELD_NUMBER: _ClassVar[int]
    UNIT_FIELD_NUMBER: _ClassVar[int]
    ROUNDING_FIELD_NUMBER: _ClassVar[int]
    INCREMENT_FIELD_NUMBER: _ClassVar[int]
    PER_INCREMENT_FIELD_NUMBER: _ClassVar[int]
    percent: float
    caps: _containers.RepeatedCompositeFieldContainer[RakeCap]
    no_flop_no_drop: bool
    unit: int
    rounding: str
    increment: int
    per_increment: int
    def __init__(self, percent: _Optional[float] = ..., caps: _Optional[_Iterable[_Union[RakeCap, _Mapping]]] = ..., no_flop_no_drop: _Optional[bool] = ..., unit: _Optional[int] = ..., rounding: _Optional[str] = ..., increment: _Optional[int] = ..., per_increment: _Optional[int] = ...) -> None: ...

class RakeCap(_message.Message):
    __slots__ = ("players", "cap")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    CAP_FIELD_NUMBER: _ClassVar[int]
    players: int
    cap: int
    def __init__(self, players: _Optional[int] = ..., cap: _Optional[int] = ...) -> None: ...

class JackpotDropRule(_message.Message):
    __slots__ = ("amount", "percent", "cap", "threshold")
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    PERCENT_FIELD_NUMBER: _ClassVar[int]
    CAP_FIELD_NUMBER: _ClassVar[int]
    THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    amount: int
    percent: float
    cap: int
    threshold: int
    def __init__(self, amount: _Optional[int] = ..., percent: _Optional[float] = ..., cap: _Optional[int] = ..., threshold: _Optional[int] = ...) -> None: ...

class JackpotPolicySpec(_message.Message):
    __slots__ = ("seed", "reserve_share", "admin_share", "reseed", "loser_share", "winner_share", "table_share", "room_share", "two_losers", "step_down")
    SEED_FIELD_NUMBER: _ClassVar[int]
    RESERVE_SHARE_FIELD_NUMBER: _ClassVar[int]
    ADMIN_SHARE_FIELD_NUMBER: _ClassVar[int]
    RESEED_FIELD_NUMBER: _ClassVar[int]
    LOSER_SHARE_FIELD_NUMBER: _ClassVar[int]
    WINNER_SHARE_FIELD_NUMBER: _ClassVar[int]
    TABLE_SHARE_FIELD_NUMBER: _ClassVar[int]
    ROOM_SHARE_FIELD_NUMBER: _ClassVar[int]
    TWO_LOSERS_FIELD_NUMBER: _ClassVar[int]
    STEP_DOWN_FIELD_NUMBER: _ClassVar[int]
    seed: int
    reserve_share: float
    admin_share: float
    reseed: str
    loser_share: float
    winner_share: float
    table_share: float
    room_share: float
    two_losers: JackpotTwoLosers
    step_down: JackpotStepDown
    def __init__(self, seed: _Optional[int] = ..., reserve_share: _Optional[float] = ..., admin_share: _Optional[float] = ..., reseed: _Optional[str] = ..., loser_share: _Optional[float] = ..., winner_share: _Optional[float] = ..., table_share: _Optional[float] = ..., room_share: _Optional[float] = ..., two_losers: _Optional[_Union[JackpotTwoLosers, _Mapping]] = ..., step_down: _Optional[_Union[JackpotStepDown, _Mapping]] = ...) -> None: ...

class JackpotTwoLosers(_message.Message):
    __slots__ = ("loser_share", "second_share", "winner_share", "table_share", "room_share")
    LOSER_SHARE_FIELD_NUMBER: _ClassVar[int]
    SECOND_SHARE_FIELD_NUMBER: _ClassVar[int]
    WINNER_SHARE_FIELD_NUMBER: _ClassVar[int]
    TABLE_SHARE_FIELD_NUMBER: _ClassVar[int]
    ROOM_SHARE_FIELD_NUMBER: _ClassVar[int]
    loser_share: float
    second_share: float
    winner_share: float
    table_share: float
    room_share: float
    def __init__(self, loser_share: _Optional[float] = ..., second_share: _Optional[float] = ..., winner_share: _Optional[float] = ..., table_share: _Optional[float] = ..., room_share: _Optional[float] = ...) -> None: ...

class JackpotStepDown(_message.Message):
    __slots__ = ("every_hours", "steps")
    EVERY_HOURS_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    every_hours: float
    steps: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, every_hours: _Optional[float] = ..., steps: _Optional[_Iterable[str]] = ...) -> None: ...

class BadBeatJackpot(_message.Message):
    __slots__ = ("min_losing_hand", "min_winning_hand", "hole_cards_play", "quads_need_pocket_pair", "board_trips_full_house", "sweep", "losing_hand", "winning_hand")
    MIN_LOSING_HAND_FIELD_NUMBER: _ClassVar[int]
    MIN_WINNING_HAND_FIELD_NUMBER: _ClassVar[int]
    HOLE_CARDS_PLAY_FIELD_NUMBER: _ClassVar[int]
    QUADS_NEED_POCKET_PAIR_FIELD_NUMBER: _ClassVar[int]
    BOARD_TRIPS_FULL_HOUSE_FIELD_NUMBER: _ClassVar[int]
    SWEEP_FIELD_NUMBER: _ClassVar[int]
    LOSING_HAND_FIELD_NUMBER: _ClassVar[int]
    WINNING_HAND_FIELD_NUMBER: _ClassVar[int]
    min_losing_hand: str
    min_winning_hand: str
    hole_cards_play: int
    quads_need_pocket_pair: bool
    board_trips_full_house: bool
    sweep: _containers.RepeatedScalarFieldContainer[str]
    losing_hand: JackpotHandBand
    winning_hand: JackpotHandBand
    def __init__(self, min_losing_hand: _Optional[str] = ..., min_winning_hand: _Optional[str] = ..., hole_cards_play: _Optional[int] = ..., quads_need_pocket_pair: _Optional[bool] = ..., board_trips_full_house: _Optional[bool] = ..., sweep: _Optional[_Iterable[str]] = ..., losing_hand: _Optional[_Union[JackpotHandBand, _Mapping]] = ..., winning_hand: _Optional[_Union[JackpotHandBand, _Mapping]] = ...) -> None: ...

class JackpotHandBand(_message.Message):
    __slots__ = ("at_least", "at_most", "exactly")
    AT_LEAST_FIELD_NUMBER: _ClassVar[int]
    AT_MOST_FIELD_NUMBER: _ClassVar[int]
    EXACTLY_FIELD_NUMBER: _ClassVar[int]
    at_least: str
    at_most: str
    exactly: str
    def __init__(self, at_least: _Optional[str] = ..., at_most: _Optional[str] = ..., exactly: _Optional[str] = ...) -> None: ...

class GutsSpec(_message.Message):
    __slots__ = ("game", "table", "policy", "seats", "equilibrium", "statistics", "forced")
    GAME_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    POLICY_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    EQUILIBRIUM_FIELD_NUMBER: _ClassVar[int]
    STATISTICS_FIELD_NUMBER: _ClassVar[int]
    FORCED_FIELD_NUMBER: _ClassVar[int]
    game: str
    table: GutsTable
    policy: GutsStayPolicy
    seats: _containers.RepeatedCompositeFieldContainer[GutsStayPolicy]
    equilibrium: GutsEquilibrium
    statistics: GutsStatistics
    forced: _containers.RepeatedCompositeFieldContainer[GutsForcedDeal]
    def __init__(self, game: _Optional[str] = ..., table: _Optional[_Union[GutsTable, _Mapping]] = ..., policy: _Optional[_Union[GutsStayPolicy, _Mapping]] = ..., seats: _Optional[_Iterable[_Union[GutsStayPolicy, _Mapping]]] = ..., equilibrium: _Optional[_Union[GutsEquilibrium, _Mapping]] = ..., statistics: _Optional[_Union[GutsStatistics, _Mapping]] = ..., forced: _Optional[_Iterable[_Union[GutsForcedDeal, _Mapping]]] = ...) -> None: ...

class GutsStatistics(_message.Message):
    __slots__ = ("pot_over", "deals_over")
    POT_OVER_FIELD_NUMBER: _ClassVar[int]
    DEALS_OVER_FIELD_NUMBER: _ClassVar[int]
    pot_over: _containers.RepeatedScalarFieldContainer[int]
    deals_over: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, pot_over: _Optional[_Iterable[int]] = ..., deals_over: _Optional[_Iterable[int]] = ...) -> None: ...

class GutsForcedDeal(_message.Message):
    __slots__ = ("hands", "stay")
    HANDS_FIELD_NUMBER: _ClassVar[int]
    STAY_FIELD_NUMBER: _ClassVar[int]
    hands: _containers.RepeatedScalarFieldContainer[str]
    stay: _containers.RepeatedScalarFieldContainer[bool]
    def __init__(self, hands: _Optional[_Iterable[str]] = ..., stay: _Optional[_Iterable[bool]] = ...) -> None: ...

class GutsTable(_message.Message):
    __slots__ = ("players", "max_deals")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_DEALS_FIELD_NUMBER: _ClassVar[int]
    players: int
    max_deals: int
    def __init__(self, players: _Optional[int] = ..., max_deals: _Optional[int] = ...) -> None: ...

class GutsStayPolicy(_message.Message):
    __slots__ = ("stay", "top", "hand", "chance")
    STAY_FIELD_NUMBER: _ClassVar[int]
    TOP_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    CHANCE_FIELD_NUMBER: _ClassVar[int]
    stay: str
    top: float
    hand: str
    chance: float
    def __init__(self, stay: _Optional[str] = ..., top: _Optional[float] = ..., hand: _Optional[str] = ..., chance: _Optional[float] = ...) -> None: ...

class GutsEquilibrium(_message.Message):
    __slots__ = ("search", "rounds", "sessions", "seed")
    SEARCH_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    search: bool
    rounds: int
    sessions: int
    seed: int
    def __init__(self, search: _Optional[bool] = ..., rounds: _Optional[int] = ..., sessions: _Optional[int] = ..., seed: _Optional[int] = ...) -> None: ...

class ExhaustionSpec(_message.Message):
    __slots__ = ("game", "table", "policy", "draw")
    GAME_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    POLICY_FIELD_NUMBER: _ClassVar[int]
    DRAW_FIELD_NUMBER: _ClassVar[int]
    game: str
    table: ExhaustionTable
    policy: ExhaustionPolicy
    draw: ExhaustionDraw
    def __init__(self, game: _Optional[str] = ..., table: _Optional[_Union[ExhaustionTable, _Mapping]] = ..., policy: _Optional[_Union[ExhaustionPolicy, _Mapping]] = ..., draw: _Optional[_Union[ExhaustionDraw, _Mapping]] = ...) -> None: ...

class ExhaustionTable(_message.Message):
    __slots__ = ("players", "exhaustion", "deals_bottom_card", "five_consecutive")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    EXHAUSTION_FIELD_NUMBER: _ClassVar[int]
    DEALS_BOTTOM_CARD_FIELD_NUMBER: _ClassVar[int]
    FIVE_CONSECUTIVE_FIELD_NUMBER: _ClassVar[int]
    players: _containers.RepeatedScalarFieldContainer[int]
    exhaustion: str
    deals_bottom_card: bool
    five_consecutive: bool
    def __init__(self, players: _Optional[_Iterable[int]] = ..., exhaustion: _Optional[str] = ..., deals_bottom_card: _Optional[bool] = ..., five_consecutive: _Optional[bool] = ...) -> None: ...

class ExhaustionPolicy(_message.Message):
    __slots__ = ("fold_chance", "threshold")
    FOLD_CHANCE_FIELD_NUMBER: _ClassVar[int]
    THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    fold_chance: float
    threshold: str
    def __init__(self, fold_chance: _Optional[float] = ..., threshold: _Optional[str] = ...) -> None: ...

class ExhaustionDraw(_message.Message):
    __slots__ = ("rank", "law")
    RANK_FIELD_NUMBER: _ClassVar[int]
    LAW_FIELD_NUMBER: _ClassVar[int]
    rank: str
    law: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, rank: _Optional[str] = ..., law: _Optional[_Iterable[float]] = ...) -> None: ...

class RakeSpec(_message.Message):
    __slots__ = ("game", "table", "players", "room", "policies")
    GAME_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ROOM_FIELD_NUMBER: _ClassVar[int]
    POLICIES_FIELD_NUMBER: _ClassVar[int]
    game: str
    table: RakeTable
    players: _containers.RepeatedCompositeFieldContainer[PlayerModel]
    room: RakeRoom
    policies: _containers.RepeatedCompositeFieldContainer[RakePolicySpec]
    def __init__(self, game: _Optional[str] = ..., table: _Optional[_Union[RakeTable, _Mapping]] = ..., players: _Optional[_Iterable[_Union[PlayerModel, _Mapping]]] = ..., room: _Optional[_Union[RakeRoom, _Mapping]] = ..., policies: _Optional[_Iterable[_Union[RakePolicySpec, _Mapping]]] = ...) -> None: ...

class RakeTable(_message.Message):
    __slots__ = ("players", "blinds")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    BLINDS_FIELD_NUMBER: _ClassVar[int]
    players: int
    blinds: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, players: _Optional[int] = ..., blinds: _Optional[_Iterable[int]] = ...) -> None: ...

class RakeRoom(_message.Message):
    __slots__ = ("tables", "hands_per_hour")
    TABLES_FIELD_NUMBER: _ClassVar[int]
    HANDS_PER_HOUR_FIELD_NUMBER: _ClassVar[int]
    tables: int
    hands_per_hour: float
    def __init__(self, tables: _Optional[int] = ..., hands_per_hour: _Optional[float] = ...) -> None: ...

class RakePolicySpec(_message.Message):
    __slots__ = ("name", "percent", "caps", "no_flop_no_drop", "unit", "rounding", "increment", "per_increment", "drop", "time")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PERCENT_FIELD_NUMBER: _ClassVar[int]
    CAPS_FIELD_NUMBER: _ClassVar[int]
    NO_FLOP_NO_DROP_FIELD_NUMBER: _ClassVar[int]
    UNIT_FIELD_NUMBER: _ClassVar[int]
    ROUNDING_FIELD_NUMBER: _ClassVar[int]
    INCREMENT_FIELD_NUMBER: _ClassVar[int]
    PER_INCREMENT_FIELD_NUMBER: _ClassVar[int]
    DROP_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    name: str
    percent: float
    caps: _containers.RepeatedCompositeFieldContainer[RakeCap]
    no_flop_no_drop: bool
    unit: int
    rounding: str
    increment: int
    per_increment: int
    drop: JackpotDropRule
    time: int
    def __init__(self, name: _Optional[str] = ..., percent: _Optional[float] = ..., caps: _Optional[_Iterable[_Union[RakeCap, _Mapping]]] = ..., no_flop_no_drop: _Optional[bool] = ..., unit: _Optional[int] = ..., rounding: _Optional[str] = ..., increment: _Optional[int] = ..., per_increment: _Optional[int] = ..., drop: _Optional[_Union[JackpotDropRule, _Mapping]] = ..., time: _Optional[int] = ...) -> None: ...

class JobProgress(_message.Message):
    __slots__ = ("shards_done", "shards_total", "trials_done", "trials_total", "estimate")
    SHARDS_DONE_FIELD_NUMBER: _ClassVar[int]
    SHARDS_TOTAL_FIELD_NUMBER: _ClassVar[int]
    TRIALS_DONE_FIELD_NUMBER: _ClassVar[int]
    TRIALS_TOTAL_FIELD_NUMBER: _ClassVar[int]
    ESTIMATE_FIELD_NUMBER: _ClassVar[int]
    shards_done: int
    shards_total: int
    trials_done: int
    trials_total: int
    estimate: JobResult
    def __init__(self, shards_done: _Optional[int] = ..., shards_total: _Optional[int] = ..., trials_done: _Optional[int] = ..., trials_total: _Optional[int] = ..., estimate: _Optional[_Union[JobResult, _Mapping]] = ...) -> None: ...

class JobResult(_message.Message):
    __slots__ = ("bad_beat", "guts", "exhaustion", "rake")
    BAD_BEAT_FIELD_NUMBER: _ClassVar[int]
    GUTS_FIELD_NUMBER: _ClassVar[int]
    EXHAUSTION_FIELD_NUMBER: _ClassVar[int]
    RAKE_FIELD_NUMBER: _ClassVar[int]
    bad_beat: BadBeatResult
    guts: GutsResult
    exhaustion: ExhaustionResult
    rake: RakeResult
    def __init__(self, bad_beat: _Optional[_Union[BadBeatResult, _Mapping]] = ..., guts: _Optional[_Union[GutsResult, _Mapping]] = ..., exhaustion: _Optional[_Union[ExhaustionResult, _Mapping]] = ..., rake: _Optional[_Union[RakeResult, _Mapping]] = ...) -> None: ...

class BadBeatResult(_message.Message):
    __slots__ = ("hands", "jackpot_hands", "frequency", "ci95_low", "ci95_high", "one_in", "qualifying_hands", "qualifying_frequency", "qualifying_ci95_low", "qualifying_ci95_high", "hands_between_hits", "levels", "table", "policy")
    HANDS_FIELD_NUMBER: _ClassVar[int]
    JACKPOT_HANDS_FIELD_NUMBER: _ClassVar[int]
    FREQUENCY_FIELD_NUMBER: _ClassVar[int]
    CI95_LOW_FIELD_NUMBER: _ClassVar[int]
    CI95_HIGH_FIELD_NUMBER: _ClassVar[int]
    ONE_IN_FIELD_NUMBER: _ClassVar[int]
    QUALIFYING_HANDS_FIELD_NUMBER: _ClassVar[int]
    QUALIFYING_FREQUENCY_FIELD_NUMBER: _ClassVar[int]
    QUALIFYING_CI95_LOW_FIELD_NUMBER: _ClassVar[int]
    QUALIFYING_CI95_HIGH_FIELD_NUMBER: _ClassVar[int]
    HANDS_BETWEEN_HITS_FIELD_NUMBER: _ClassVar[int]
    LEVELS_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    POLICY_FIELD_NUMBER: _ClassVar[int]
    hands: int
    jackpot_hands: int
    frequency: float
    ci95_low: float
    ci95_high: float
    one_in: float
    qualifying_hands: int
    qualifying_frequency: float
    qualifying_ci95_low: float
    qualifying_ci95_high: float
    hands_between_hits: Distribution
    levels: _containers.RepeatedCompositeFieldContainer[BadBeatLevel]
    table: BadBeatTable
    policy: JackpotPolicyResult
    def __init__(self, hands: _Optional[int] = ..., jackpot_hands: _Optional[int] = ..., frequency: _Optional[float] = ..., ci95_low: _Optional[float] = ..., ci95_high: _Optional[float] = ..., one_in: _Optional[float] = ..., qualifying_hands: _Optional[int] = ..., qualifying_frequency: _Optional[float] = ..., qualifying_ci95_low: _Optional[float] = ..., qualifying_ci95_high: _Optional[float] = ..., hands_between_hits: _Optional[_Union[Distribution, _Mapping]] = ..., levels: _Optional[_Iterable[_Union[BadBeatLevel, _Mapping]]] = ..., table: _Optional[_Union[BadBeatTable, _Mapping]] = ..., policy: _Optional[_Union[JackpotPolicyResult, _Mapping]] = ...) -> None: ...

class BadBeatLevel(_message.Message):
    __slots__ = ("losing_hand", "jackpot_hands", "card_hands", "frequency", "ci95_low", "ci95_high", "qualifying_hands", "qualifying_frequency", "qualifying_ci95_low", "qualifying_ci95_high")
    LOSING_HAND_FIELD_NUMBER: _ClassVar[int]
    JACKPOT_HANDS_FIELD_NUMBER: _ClassVar[int]
    CARD_HANDS_FIELD_NUMBER: _ClassVar[int]
    FREQUENCY_FIELD_NUMBER: _ClassVar[int]
    CI95_LOW_FIELD_NUMBER: _ClassVar[int]
    CI95_HIGH_FIELD_NUMBER: _ClassVar[int]
    QUALIFYING_HANDS_FIELD_NUMBER: _ClassVar[int]
    QUALIFYING_FREQUENCY_FIELD_NUMBER: _ClassVar[int]
    QUALIFYING_CI95_LOW_FIELD_NUMBER: _ClassVar[int]
    QUALIFYING_CI95_HIGH_FIELD_NUMBER: _ClassVar[int]
    losing_hand: str
    jackpot_hands: int
    card_hands: int
    frequency: float
    ci95_low: float
    ci95_high: float
    qualifying_hands: int
    qualifying_frequency: float
    qualifying_ci95_low: float
    qualifying_ci95_high: float
    def __init__(self, losing_hand: _Optional[str] = ..., jackpot_hands: _Optional[int] = ..., card_hands: _Optional[int] = ..., frequency: _Optional[float] = ..., ci95_low: _Optional[float] = ..., ci95_high: _Optional[float] = ..., qualifying_hands: _Optional[int] = ..., qualifying_frequency: _Optional[float] = ..., qualifying_ci95_low: _Optional[float] = ..., qualifying_ci95_high: _Optional[float] = ...) -> None: ...

class BadBeatTable(_message.Message):
    __slots__ = ("flop_share", "showdown_share", "no_showdown_share", "players_per_flop", "mean_pot_bb", "kinds", "rake_per_hand", "drop_per_hand", "conditions_met", "rake_taken", "drop_taken")
    FLOP_SHARE_FIELD_NUMBER: _ClassVar[int]
    SHOWDOWN_SHARE_FIELD_NUMBER: _ClassVar[int]
    NO_SHOWDOWN_SHARE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_PER_FLOP_FIELD_NUMBER: _ClassVar[int]
    MEAN_POT_BB_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    RAKE_PER_HAND_FIELD_NUMBER: _ClassVar[int]
    DROP_PER_HAND_FIELD_NUMBER: _ClassVar[int]
    CONDITIONS_MET_FIELD_NUMBER: _ClassVar[int]
    RAKE_TAKEN_FIELD_NUMBER: _ClassVar[int]
    DROP_TAKEN_FIELD_NUMBER: _ClassVar[int]
    flop_share: float
    showdown_share: float
    no_showdown_share: float
    players_per_flop: float
    mean_pot_bb: float
    kinds: _containers.RepeatedCompositeFieldContainer[KindStats]
    rake_per_hand: float
    drop_per_hand: float
    conditions_met: float
    rake_taken: Distribution
    drop_taken: Distribution
    def __init__(self, flop_share: _Optional[float] = ..., showdown_share: _Optional[float] = ..., no_showdown_share: _Optional[float] = ..., players_per_flop: _Optional[float] = ..., mean_pot_bb: _Optional[float] = ..., kinds: _Optional[_Iterable[_Union[KindStats, _Mapping]]] = ..., rake_per_hand: _Optional[float] = ..., drop_per_hand: _Optional[float] = ..., conditions_met: _Optional[float] = ..., rake_taken: _Optional[_Union[Distribution, _Mapping]] = ..., drop_taken: _Optional[_Union[Distribution, _Mapping]] = ...) -> None: ...

class KindStats(_message.Message):
    __slots__ = ("name", "seats", "model", "vpip", "saw_flop", "went_to_showdown", "won")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    VPIP_FIELD_NUMBER: _ClassVar[int]
    SAW_FLOP_FIELD_NUMBER: _ClassVar[int]
    WENT_TO_SHOWDOWN_FIELD_NUMBER: _ClassVar[int]
    WON_FIELD_NUMBER: _ClassVar[int]
    name: str
    seats: int
    model: str
    vpip: float
    saw_flop: float
    went_to_showdown: float
    won: float
    def __init__(self, name: _Optional[str] = ..., seats: _Optional[int] = ..., model: _Optional[str] = ..., vpip: _Optional[float] = ..., saw_flop: _Optional[float] = ..., went_to_showdown: _Optional[float] = ..., won: _Optional[float] = ...) -> None: ...

class JackpotPolicyResult(_message.Message):
    __slots__ = ("hit_frequency", "hit_frequency_ci95_low", "hit_frequency_ci95_high", "hands_between_hits", "hands_between_hits_ci95_low", "hands_between_hits_ci95_high", "hours_between_hits", "hours_between_hits_ci95_low", "hours_between_hits_ci95_high", "jackpot_mean", "jackpot_ci95_low", "jackpot_ci95_high", "jackpot_quantiles", "jackpot_histogram", "hit_levels", "drop_per_hand", "drop_per_hour", "returned_share", "kinds")
    HIT_FREQUENCY_FIELD_NUMBER: _ClassVar[int]
    HIT_FREQUENCY_CI95_LOW_FIELD_NUMBER: _ClassVar[int]
    HIT_FREQUENCY_CI95_HIGH_FIELD_NUMBER: _ClassVar[int]
    HANDS_BETWEEN_HITS_FIELD_NUMBER: _ClassVar[int]
    HANDS_BETWEEN_HITS_CI95_LOW_FIELD_NUMBER: _ClassVar[int]
    HANDS_BETWEEN_HITS_CI95_HIGH_FIELD_NUMBER: _ClassVar[int]
    HOURS_BETWEEN_HITS_FIELD_NUMBER: _ClassVar[int]
    HOURS_BETWEEN_HITS_CI95_LOW_FIELD_NUMBER: _ClassVar[int]
    HOURS_BETWEEN_HITS_CI95_HIGH_FIELD_NUMBER: _ClassVar[int]
    JACKPOT_MEAN_FIELD_NUMBER: _ClassVar[int]
    JACKPOT_CI95_LOW_FIELD_NUMBER: _ClassVar[int]
    JACKPOT_CI95_HIGH_FIELD_NUMBER: _ClassVar[int]
    JACKPOT_QUANTILES_FIELD_NUMBER: _ClassVar[int]
    JACKPOT_HISTOGRAM_FIELD_NUMBER: _ClassVar[int]
    HIT_LEVELS_FIELD_NUMBER: _ClassVar[int]
    DROP_PER_HAND_FIELD_NUMBER: _ClassVar[int]
    DROP_PER_HOUR_FIELD_NUMBER: _ClassVar[int]
    RETURNED_SHARE_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    hit_frequency: float
    hit_frequency_ci95_low: float
    hit_frequency_ci95_high: float
    hands_between_hits: float
    hands_between_hits_ci95_low: float
    hands_between_hits_ci95_high: float
    hours_between_hits: float
    hours_between_hits_ci95_low: float
    hours_between_hits_ci95_high: float
    jackpot_mean: float
    jackpot_ci95_low: float
    jackpot_ci95_high: float
    jackpot_quantiles: _containers.RepeatedCompositeFieldContainer[JackpotQuantile]
    jackpot_histogram: _containers.RepeatedCompositeFieldContainer[JackpotBar]
    hit_levels: _containers.RepeatedCompositeFieldContainer[JackpotHitLevel]
    drop_per_hand: float
    drop_per_hour: float
    returned_share: float
    kinds: _containers.RepeatedCompositeFieldContainer[JackpotKind]
    def __init__(self, hit_frequency: _Optional[float] = ..., hit_frequency_ci95_low: _Optional[float] = ..., hit_frequency_ci95_high: _Optional[float] = ..., hands_between_hits: _Optional[float] = ..., hands_between_hits_ci95_low: _Optional[float] = ..., hands_between_hits_ci95_high: _Optional[float] = ..., hours_between_hits: _Optional[float] = ..., hours_between_hits_ci95_low: _Optional[float] = ..., hours_between_hits_ci95_high: _Optional[float] = ..., jackpot_mean: _Optional[float] = ..., jackpot_ci95_low: _Optional[float] = ..., jackpot_ci95_high: _Optional[float] = ..., jackpot_quantiles: _Optional[_Iterable[_Union[JackpotQuantile, _Mapping]]] = ..., jackpot_histogram: _Optional[_Iterable[_Union[JackpotBar, _Mapping]]] = ..., hit_levels: _Optional[_Iterable[_Union[JackpotHitLevel, _Mapping]]] = ..., drop_per_hand: _Optional[float] = ..., drop_per_hour: _Optional[float] = ..., returned_share: _Optional[float] = ..., kinds: _Optional[_Iterable[_Union[JackpotKind, _Mapping]]] = ...) -> None: ...

class JackpotQuantile(_message.Message):
    __slots__ = ("q", "value")
    Q_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    q: float
    value: float
    def __init__(self, q: _Optional[float] = ..., value: _Optional[float] = ...) -> None: ...

class JackpotBar(_message.Message):
    __slots__ = ("low", "high", "share")
    LOW_FIELD_NUMBER: _ClassVar[int]
    HIGH_FIELD_NUMBER: _ClassVar[int]
    SHARE_FIELD_NUMBER: _ClassVar[int]
    low: float
    high: float
    share: float
    def __init__(self, low: _Optional[float] = ..., high: _Optional[float] = ..., share: _Optional[float] = ...) -> None: ...

class JackpotHitLevel(_message.Message):
    __slots__ = ("losing_hand", "share")
    LOSING_HAND_FIELD_NUMBER: _ClassVar[int]
    SHARE_FIELD_NUMBER: _ClassVar[int]
    losing_hand: str
    share: float
    def __init__(self, losing_hand: _Optional[str] = ..., share: _Optional[float] = ...) -> None: ...

class JackpotKind(_message.Message):
    __slots__ = ("name", "received_bb100", "drop_paid_bb100", "net_bb100")
    NAME_FIELD_NUMBER: _ClassVar[int]
    RECEIVED_BB100_FIELD_NUMBER: _ClassVar[int]
    DROP_PAID_BB100_FIELD_NUMBER: _ClassVar[int]
    NET_BB100_FIELD_NUMBER: _ClassVar[int]
    name: str
    received_bb100: float
    drop_paid_bb100: float
    net_bb100: float
    def __init__(self, name: _Optional[str] = ..., received_bb100: _Optional[float] = ..., drop_paid_bb100: _Optional[float] = ..., net_bb100: _Optional[float] = ...) -> None: ...

class GutsResult(_message.Message):
    __slots__ = ("sessions", "endings", "censored", "inexact_sessions", "inexact_note", "deals", "deals_over", "final_pot", "largest_pot", "pot_over", "growth", "pot_tail_index", "pot_by_deal", "cap_hit_sessions", "cap_hits", "set_aside_total", "seats", "equilibrium")
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    ENDINGS_FIELD_NUMBER: _ClassVar[int]
    CENSORED_FIELD_NUMBER: _ClassVar[int]
    INEXACT_SESSIONS_FIELD_NUMBER: _ClassVar[int]
    INEXACT_NOTE_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    DEALS_OVER_FIELD_NUMBER: _ClassVar[int]
    FINAL_POT_FIELD_NUMBER: _ClassVar[int]
    LARGEST_POT_FIELD_NUMBER: _ClassVar[int]
    POT_OVER_FIELD_NUMBER: _ClassVar[int]
    GROWTH_FIELD_NUMBER: _ClassVar[int]
    POT_TAIL_INDEX_FIELD_NUMBER: _ClassVar[int]
    POT_BY_DEAL_FIELD_NUMBER: _ClassVar[int]
    CAP_HIT_SESSIONS_FIELD_NUMBER: _ClassVar[int]
    CAP_HITS_FIELD_NUMBER: _ClassVar[int]
    SET_ASIDE_TOTAL_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    EQUILIBRIUM_FIELD_NUMBER: _ClassVar[int]
    sessions: int
    endings: _containers.RepeatedCompositeFieldContainer[GutsEnding]
    censored: int
    inexact_sessions: int
    inexact_note: str
    deals: Distribution
    deals_over: _containers.RepeatedCompositeFieldContainer[GutsDealsOver]
    final_pot: Distribution
    largest_pot: Distribution
    pot_over: _containers.RepeatedCompositeFieldContainer[GutsPotOver]
    growth: GutsGrowth
    pot_tail_index: TailIndex
    pot_by_deal: _containers.RepeatedCompositeFieldContainer[GutsPotByDeal]
    cap_hit_sessions: int
    cap_hits: int
    set_aside_total: int
    seats: _containers.RepeatedCompositeFieldContainer[GutsSeat]
    equilibrium: GutsEquilibriumResult
    def __init__(self, sessions: _Optional[int] = ..., endings: _Optional[_Iterable[_Union[GutsEnding, _Mapping]]] = ..., censored: _Optional[int] = ..., inexact_sessions: _Optional[int] = ..., inexact_note: _Optional[str] = ..., deals: _Optional[_Union[Distribution, _Mapping]] = ..., deals_over: _Optional[_Iterable[_Union[GutsDealsOver, _Mapping]]] = ..., final_pot: _Optional[_Union[Distribution, _Mapping]] = ..., largest_pot: _Optional[_Union[Distribution, _Mapping]] = ..., pot_over: _Optional[_Iterable[_Union[GutsPotOver, _Mapping]]] = ..., growth: _Optional[_Union[GutsGrowth, _Mapping]] = ..., pot_tail_index: _Optional[_Union[TailIndex, _Mapping]] = ..., pot_by_deal: _Optional[_Iterable[_Union[GutsPotByDeal, _Mapping]]] = ..., cap_hit_sessions: _Optional[int] = ..., cap_hits: _Optional[int] = ..., set_aside_total: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[GutsSeat, _Mapping]]] = ..., equilibrium: _Optional[_Union[GutsEquilibriumResult, _Mapping]] = ...) -> None: ...

class GutsEnding(_message.Message):
    __slots__ = ("ending", "sessions", "frequency", "ci95_low", "ci95_high")
    ENDING_FIELD_NUMBER: _ClassVar[int]
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    FREQUENCY_FIELD_NUMBER: _ClassVar[int]
    CI95_LOW_FIELD_NUMBER: _ClassVar[int]
    CI95_HIGH_FIELD_NUMBER: _ClassVar[int]
    ending: str
    sessions: int
    frequency: float
    ci95_low: float
    ci95_high: float
    def __init__(self, ending: _Optional[str] = ..., sessions: _Optional[int] = ..., frequency: _Optional[float] = ..., ci95_low: _Optional[float] = ..., ci95_high: _Optional[float] = ...) -> None: ...

class GutsDealsOver(_message.Message):
    __slots__ = ("deals", "sessions", "frequency", "ci95_low", "ci95_high")
    DEALS_FIELD_NUMBER: _ClassVar[int]
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    FREQUENCY_FIELD_NUMBER: _ClassVar[int]
    CI95_LOW_FIELD_NUMBER: _ClassVar[int]
    CI95_HIGH_FIELD_NUMBER: _ClassVar[int]
    deals: int
    sessions: int
    frequency: float
    ci95_low: float
    ci95_high: float
    def __init__(self, deals: _Optional[int] = ..., sessions: _Optional[int] = ..., frequency: _Optional[float] = ..., ci95_low: _Optional[float] = ..., ci95_high: _Optional[float] = ...) -> None: ...

class GutsGrowth(_message.Message):
    __slots__ = ("deals", "mean", "mean_ci95_low", "mean_ci95_high", "mean_square", "mean_square_ci95_low", "mean_square_ci95_high")
    DEALS_FIELD_NUMBER: _ClassVar[int]
    MEAN_FIELD_NUMBER: _ClassVar[int]
    MEAN_CI95_LOW_FIELD_NUMBER: _ClassVar[int]
    MEAN_CI95_HIGH_FIELD_NUMBER: _ClassVar[int]
    MEAN_SQUARE_FIELD_NUMBER: _ClassVar[int]
    MEAN_SQUARE_CI95_LOW_FIELD_NUMBER: _ClassVar[int]
    MEAN_SQUARE_CI95_HIGH_FIELD_NUMBER: _ClassVar[int]
    deals: int
    mean: float
    mean_ci95_low: float
    mean_ci95_high: float
    mean_square: float
    mean_square_ci95_low: float
    mean_square_ci95_high: float
    def __init__(self, deals: _Optional[int] = ..., mean: _Optional[float] = ..., mean_ci95_low: _Optional[float] = ..., mean_ci95_high: _Optional[float] = ..., mean_square: _Optional[float] = ..., mean_square_ci95_low: _Optional[float] = ..., mean_square_ci95_high: _Optional[float] = ...) -> None: ...

class TailIndex(_message.Message):
    __slots__ = ("alpha", "ci95_low", "ci95_high", "k")
    ALPHA_FIELD_NUMBER: _ClassVar[int]
    CI95_LOW_FIELD_NUMBER: _ClassVar[int]
    CI95_HIGH_FIELD_NUMBER: _ClassVar[int]
    K_FIELD_NUMBER: _ClassVar[int]
    alpha: float
    ci95_low: float
    ci95_high: float
    k: int
    def __init__(self, alpha: _Optional[float] = ..., ci95_low: _Optional[float] = ..., ci95_high: _Optional[float] = ..., k: _Optional[int] = ...) -> None: ...

class Distribution(_message.Message):
    __slots__ = ("count", "minimum", "maximum", "quantiles", "mean", "mean_ci95_low", "mean_ci95_high", "tail", "tail_note", "censored", "censored_note", "histogram", "log_histogram")
    COUNT_FIELD_NUMBER: _ClassVar[int]
    MINIMUM_FIELD_NUMBER: _ClassVar[int]
    MAXIMUM_FIELD_NUMBER: _ClassVar[int]
    QUANTILES_FIELD_NUMBER: _ClassVar[int]
    MEAN_FIELD_NUMBER: _ClassVar[int]
    MEAN_CI95_LOW_FIELD_NUMBER: _ClassVar[int]
    MEAN_CI95_HIGH_FIELD_NUMBER: _ClassVar[int]
    TAIL_FIELD_NUMBER: _ClassVar[int]
    TAIL_NOTE_FIELD_NUMBER: _ClassVar[int]
    CENSORED_FIELD_NUMBER: _ClassVar[int]
    CENSORED_NOTE_FIELD_NUMBER: _ClassVar[int]
    HISTOGRAM_FIELD_NUMBER: _ClassVar[int]
    LOG_HISTOGRAM_FIELD_NUMBER: _ClassVar[int]
    count: int
    minimum: float
    maximum: float
    quantiles: _containers.RepeatedCompositeFieldContainer[QuantileEstimate]
    mean: float
    mean_ci95_low: float
    mean_ci95_high: float
    tail: str
    tail_note: str
    censored: int
    censored_note: str
    histogram: _containers.RepeatedCompositeFieldContainer[CountOfValue]
    log_histogram: _containers.RepeatedCompositeFieldContainer[LogBin]
    def __init__(self, count: _Optional[int] = ..., minimum: _Optional[float] = ..., maximum: _Optional[float] = ..., quantiles: _Optional[_Iterable[_Union[QuantileEstimate, _Mapping]]] = ..., mean: _Optional[float] = ..., mean_ci95_low: _Optional[float] = ..., mean_ci95_high: _Optional[float] = ..., tail: _Optional[str] = ..., tail_note: _Optional[str] = ..., censored: _Optional[int] = ..., censored_note: _Optional[str] = ..., histogram: _Optional[_Iterable[_Union[CountOfValue, _Mapping]]] = ..., log_histogram: _Optional[_Iterable[_Union[LogBin, _Mapping]]] = ...) -> None: ...

class QuantileEstimate(_message.Message):
    __slots__ = ("q", "value", "ci95_low", "ci95_high")
    Q_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    CI95_LOW_FIELD_NUMBER: _ClassVar[int]
    CI95_HIGH_FIELD_NUMBER: _ClassVar[int]
    q: float
    value: float
    ci95_low: float
    ci95_high: float
    def __init__(self, q: _Optional[float] = ..., value: _Optional[float] = ..., ci95_low: _Optional[float] = ..., ci95_high: _Optional[float] = ...) -> None: ...

class LogBin(_message.Message):
    __slots__ = ("low", "high", "count")
    LOW_FIELD_NUMBER: _ClassVar[int]
    HIGH_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    low: float
    high: float
    count: int
    def __init__(self, low: _Optional[float] = ..., high: _Optional[float] = ..., count: _Optional[int] = ...) -> None: ...

class CountOfValue(_message.Message):
    __slots__ = ("value", "count")
    VALUE_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    value: int
    count: int
    def __init__(self, value: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...

class GutsPotByDeal(_message.Message):
    __slots__ = ("deal", "sessions", "mean_pot")
    DEAL_FIELD_NUMBER: _ClassVar[int]
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    MEAN_POT_FIELD_NUMBER: _ClassVar[int]
    deal: int
    sessions: int
    mean_pot: float
    def __init__(self, deal: _Optional[int] = ..., sessions: _Optional[int] = ..., mean_pot: _Optional[float] = ...) -> None: ...

class GutsPotOver(_message.Message):
    __slots__ = ("times_ante", "sessions", "frequency", "ci95_low", "ci95_high")
    TIMES_ANTE_FIELD_NUMBER: _ClassVar[int]
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    FREQUENCY_FIELD_NUMBER: _ClassVar[int]
    CI95_LOW_FIELD_NUMBER: _ClassVar[int]
    CI95_HIGH_FIELD_NUMBER: _ClassVar[int]
    times_ante: int
    sessions: int
    frequency: float
    ci95_low: float
    ci95_high: float
    def __init__(self, times_ante: _Optional[int] = ..., sessions: _Optional[int] = ..., frequency: _Optional[float] = ..., ci95_low: _Optional[float] = ..., ci95_high: _Optional[float] = ...) -> None: ...

class GutsSeat(_message.Message):
    __slots__ = ("seat", "policy", "net")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    POLICY_FIELD_NUMBER: _ClassVar[int]
    NET_FIELD_NUMBER: _ClassVar[int]
    seat: int
    policy: str
    net: Distribution
    def __init__(self, seat: _Optional[int] = ..., policy: _Optional[str] = ..., net: _Optional[_Union[Distribution, _Mapping]] = ...) -> None: ...

class GutsEquilibriumResult(_message.Message):
    __slots__ = ("top", "threshold", "value", "best_reply_top", "gain")
    TOP_FIELD_NUMBER: _ClassVar[int]
    THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    BEST_REPLY_TOP_FIELD_NUMBER: _ClassVar[int]
    GAIN_FIELD_NUMBER: _ClassVar[int]
    top: float
    threshold: str
    value: float
    best_reply_top: float
    gain: float
    def __init__(self, top: _Optional[float] = ..., threshold: _Optional[str] = ..., value: _Optional[float] = ..., best_reply_top: _Optional[float] = ..., gain: _Optional[float] = ...) -> None: ...

class ExhaustionResult(_message.Message):
    __slots__ = ("game", "game_name", "rule", "deals_bottom_card", "five_consecutive", "policy", "draw_policy", "hands", "table", "exclusive", "draw_law")
    GAME_FIELD_NUMBER: _ClassVar[int]
    GAME_NAME_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    DEALS_BOTTOM_CARD_FIELD_NUMBER: _ClassVar[int]
    FIVE_CONSECUTIVE_FIELD_NUMBER: _ClassVar[int]
    POLICY_FIELD_NUMBER: _ClassVar[int]
    DRAW_POLICY_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    EXCLUSIVE_FIELD_NUMBER: _ClassVar[int]
    DRAW_LAW_FIELD_NUMBER: _ClassVar[int]
    game: str
    game_name: str
    rule: str
    deals_bottom_card: bool
    five_consecutive: bool
    policy: str
    draw_policy: str
    hands: int
    table: _containers.RepeatedCompositeFieldContainer[ExhaustionRow]
    exclusive: bool
    draw_law: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, game: _Optional[str] = ..., game_name: _Optional[str] = ..., rule: _Optional[str] = ..., deals_bottom_card: _Optional[bool] = ..., five_consecutive: _Optional[bool] = ..., policy: _Optional[str] = ..., draw_policy: _Optional[str] = ..., hands: _Optional[int] = ..., table: _Optional[_Iterable[_Union[ExhaustionRow, _Mapping]]] = ..., exclusive: _Optional[bool] = ..., draw_law: _Optional[_Iterable[float]] = ...) -> None: ...

class ExhaustionRow(_message.Message):
    __slots__ = ("players", "hands", "mean_live_last_deal", "events", "reached_last_deal", "live_last_deal", "stub_last_deal", "cards_needed_last_deal", "cards_short_last_deal", "new_stubs")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    MEAN_LIVE_LAST_DEAL_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    REACHED_LAST_DEAL_FIELD_NUMBER: _ClassVar[int]
    LIVE_LAST_DEAL_FIELD_NUMBER: _ClassVar[int]
    STUB_LAST_DEAL_FIELD_NUMBER: _ClassVar[int]
    CARDS_NEEDED_LAST_DEAL_FIELD_NUMBER: _ClassVar[int]
    CARDS_SHORT_LAST_DEAL_FIELD_NUMBER: _ClassVar[int]
    NEW_STUBS_FIELD_NUMBER: _ClassVar[int]
    players: int
    hands: int
    mean_live_last_deal: float
    events: _containers.RepeatedCompositeFieldContainer[ExhaustionEvent]
    reached_last_deal: ExhaustionEvent
    live_last_deal: Distribution
    stub_last_deal: Distribution
    cards_needed_last_deal: Distribution
    cards_short_last_deal: Distribution
    new_stubs: Distribution
    def __init__(self, players: _Optional[int] = ..., hands: _Optional[int] = ..., mean_live_last_deal: _Optional[float] = ..., events: _Optional[_Iterable[_Union[ExhaustionEvent, _Mapping]]] = ..., reached_last_deal: _Optional[_Union[ExhaustionEvent, _Mapping]] = ..., live_last_deal: _Optional[_Union[Distribution, _Mapping]] = ..., stub_last_deal: _Optional[_Union[Distribution, _Mapping]] = ..., cards_needed_last_deal: _Optional[_Union[Distribution, _Mapping]] = ..., cards_short_last_deal: _Optional[_Union[Distribution, _Mapping]] = ..., new_stubs: _Optional[_Union[Distribution, _Mapping]] = ...) -> None: ...

class ExhaustionEvent(_message.Message):
    __slots__ = ("event", "hands", "frequency", "ci95_low", "ci95_high")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    FREQUENCY_FIELD_NUMBER: _ClassVar[int]
    CI95_LOW_FIELD_NUMBER: _ClassVar[int]
    CI95_HIGH_FIELD_NUMBER: _ClassVar[int]
    event: str
    hands: int
    frequency: float
    ci95_low: float
    ci95_high: float
    def __init__(self, event: _Optional[str] = ..., hands: _Optional[int] = ..., frequency: _Optional[float] = ..., ci95_low: _Optional[float] = ..., ci95_high: _Optional[float] = ...) -> None: ...

class RakeResult(_message.Message):
    __slots__ = ("hands", "table", "policies")
    HANDS_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    POLICIES_FIELD_NUMBER: _ClassVar[int]
    hands: int
    table: TableStats
    policies: _containers.RepeatedCompositeFieldContainer[RakePolicyResult]
    def __init__(self, hands: _Optional[int] = ..., table: _Optional[_Union[TableStats, _Mapping]] = ..., policies: _Optional[_Iterable[_Union[RakePolicyResult, _Mapping]]] = ...) -> None: ...

class TableStats(_message.Message):
    __slots__ = ("flop_share", "showdown_share", "no_showdown_share", "players_per_flop", "mean_pot_bb", "kinds")
    FLOP_SHARE_FIELD_NUMBER: _ClassVar[int]
    SHOWDOWN_SHARE_FIELD_NUMBER: _ClassVar[int]
    NO_SHOWDOWN_SHARE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_PER_FLOP_FIELD_NUMBER: _ClassVar[int]
    MEAN_POT_BB_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    flop_share: float
    showdown_share: float
    no_showdown_share: float
    players_per_flop: float
    mean_pot_bb: float
    kinds: _containers.RepeatedCompositeFieldContainer[KindStats]
    def __init__(self, flop_share: _Optional[float] = ..., showdown_share: _Optional[float] = ..., no_showdown_share: _Optional[float] = ..., players_per_flop: _Optional[float] = ..., mean_pot_bb: _Optional[float] = ..., kinds: _Optional[_Iterable[_Union[KindStats, _Mapping]]] = ...) -> None: ...

class RakePolicyResult(_message.Message):
    __slots__ = ("name", "rule", "per_hand", "per_hand_ci95", "per_100_hands", "bb_per_100_per_player", "raked_share", "capped_share", "drop_per_hand", "drop_per_hour", "time_per_hand", "difference", "difference_ci95", "difference_unpaired_ci95", "kinds", "rake_taken", "drop_taken")
    NAME_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    PER_HAND_FIELD_NUMBER: _ClassVar[int]
    PER_HAND_CI95_FIELD_NUMBER: _ClassVar[int]
    PER_100_HANDS_FIELD_NUMBER: _ClassVar[int]
    BB_PER_100_PER_PLAYER_FIELD_NUMBER: _ClassVar[int]
    RAKED_SHARE_FIELD_NUMBER: _ClassVar[int]
    CAPPED_SHARE_FIELD_NUMBER: _ClassVar[int]
    DROP_PER_HAND_FIELD_NUMBER: _ClassVar[int]
    DROP_PER_HOUR_FIELD_NUMBER: _ClassVar[int]
    TIME_PER_HAND_FIELD_NUMBER: _ClassVar[int]
    DIFFERENCE_FIELD_NUMBER: _ClassVar[int]
    DIFFERENCE_CI95_FIELD_NUMBER: _ClassVar[int]
    DIFFERENCE_UNPAIRED_CI95_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    RAKE_TAKEN_FIELD_NUMBER: _ClassVar[int]
    DROP_TAKEN_FIELD_NUMBER: _ClassVar[int]
    name: str
    rule: str
    per_hand: float
    per_hand_ci95: float
    per_100_hands: float
    bb_per_100_per_player: float
    raked_share: float
    capped_share: float
    drop_per_hand: float
    drop_per_hour: float
    time_per_hand: float
    difference: float
    difference_ci95: float
    difference_unpaired_ci95: float
    kinds: _containers.RepeatedCompositeFieldContainer[RakeKind]
    rake_taken: Distribution
    drop_taken: Distribution
    def __init__(self, name: _Optional[str] = ..., rule: _Optional[str] = ..., per_hand: _Optional[float] = ..., per_hand_ci95: _Optional[float] = ..., per_100_hands: _Optional[float] = ..., bb_per_100_per_player: _Optional[float] = ..., raked_share: _Optional[float] = ..., capped_share: _Optional[float] = ..., drop_per_hand: _Optional[float] = ..., drop_per_hour: _Optional[float] = ..., time_per_hand: _Optional[float] = ..., difference: _Optional[float] = ..., difference_ci95: _Optional[float] = ..., difference_unpaired_ci95: _Optional[float] = ..., kinds: _Optional[_Iterable[_Union[RakeKind, _Mapping]]] = ..., rake_taken: _Optional[_Union[Distribution, _Mapping]] = ..., drop_taken: _Optional[_Union[Distribution, _Mapping]] = ...) -> None: ...

class RakeKind(_message.Message):
    __slots__ = ("name", "paid_bb100", "paid_bb100_ci95", "drop_bb100", "difference_bb100", "difference_bb100_ci95")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PAID_BB100_FIELD_NUMBER: _ClassVar[int]
    PAID_BB100_CI95_FIELD_NUMBER: _ClassVar[int]
    DROP_BB100_FIELD_NUMBER: _ClassVar[int]
    DIFFERENCE_BB100_FIELD_NUMBER: _ClassVar[int]
    DIFFERENCE_BB100_CI95_FIELD_NUMBER: _ClassVar[int]
    name: str
    paid_bb100: float
    paid_bb100_ci95: float
    drop_bb100: float
    difference_bb100: float
    difference_bb100_ci95: float
    def __init__(self, name: _Optional[str] = ..., paid_bb100: _Optional[float] = ..., paid_bb100_ci95: _Optional[float] = ..., drop_bb100: _Optional[float] = ..., difference_bb100: _Optional[float] = ..., difference_bb100_ci95: _Optional[float] = ...) -> None: ...

class Job(_message.Message):
    __slots__ = ("id", "kind", "state", "spec", "progress", "result", "error", "create_time", "update_time")
    ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    PROGRESS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    id: str
    kind: str
    state: JobState
    spec: JobSpec
    progress: JobProgress
    result: JobResult
    error: str
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., kind: _Optional[str] = ..., state: _Optional[_Union[JobState, str]] = ..., spec: _Optional[_Union[JobSpec, _Mapping]] = ..., progress: _Optional[_Union[JobProgress, _Mapping]] = ..., result: _Optional[_Union[JobResult, _Mapping]] = ..., error: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class SubmitJobRequest(_message.Message):
    __slots__ = ("spec",)
    SPEC_FIELD_NUMBER: _ClassVar[int]
    spec: JobSpec
    def __init__(self, spec: _Optional[_Union[JobSpec, _Mapping]] = ...) -> None: ...

class SubmitJobResponse(_message.Message):
    __slots__ = ("job",)
    JOB_FIELD_NUMBER: _ClassVar[int]
    job: Job
    def __init__(self, job: _Optional[_Union[Job, _Mapping]] = ...) -> None: ...

class GetJobRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class GetJobResponse(_message.Message):
    __slots__ = ("job",)
    JOB_FIELD_NUMBER: _ClassVar[int]
    job: Job
    def __init__(self, job: _Optional[_Union[Job, _Mapping]] = ...) -> None: ...

class ListJobsRequest(_message.Message):
    __slots__ = ("page_size", "page_token", "state", "kind")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    state: JobState
    kind: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., state: _Optional[_Union[JobState, str]] = ..., kind: _Optional[str] = ...) -> None: ...

class ListJobsResponse(_message.Message):
    __slots__ = ("jobs", "next_page_token")
    JOBS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    jobs: _containers.RepeatedCompositeFieldContainer[Job]
    next_page_token: str
    def __init__(self, jobs: _Optional[_Iterable[_Union[Job, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class WatchJobRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class WatchJobResponse(_message.Message):
    __slots__ = ("job",)
    JOB_FIELD_NUMBER: _ClassVar[int]
    job: Job
    def __init__(self, job: _Optional[_Union[Job, _Mapping]] = ...) -> None: ...

class CancelJobRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class CancelJobResponse(_message.Message):
    __slots__ = ("job",)
    JOB_FIELD_NUMBER: _ClassVar[int]
    job: Job
    def __init__(self, job: _Optional[_Union[Job, _Mapping]] = ...) -> None: ...

class DeleteJobRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class DeleteJobResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
