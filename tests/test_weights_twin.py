"""Drawing and weighing a pool of deals: compiled and pure-Python ``tempered_weights`` agree to
the bit, and with the code they replaced (``ai.inference`` before the weighing moved into the
kernel), on random pools and on pools recorded from the hard bot's decisions; the compiled
``sample_deals``, which keeps the last plan it read, draws what the twin draws however plans
follow one another."""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Sequence
from types import ModuleType

import pytest
from positions import play_randomly
from search_kernels import IMPLEMENTATIONS, compiled, needs_compiled

from ai import inference, search, search_py
from ai.knowledge import read_knowledge
from ai.sampler import DealSampler
from ai.search_py import LOG_UNIT, TEMPER_STEPS, DealPlan, deal_plan
from core.controller import Controller

Tempered = Callable[[Sequence[int], float], tuple[list[float], float]]


def _before_effective_size(weights: Sequence[float]) -> float:
    total = sum(weights)
    squares = sum(weight * weight for weight in weights)
    return total * total / squares if squares > 0 else 0.0


def _before(log_weights: Sequence[int], minimum: float) -> tuple[list[float], float]:
    """``ai.inference.tempered_weights`` as it was before it moved into the kernel."""
    top = max(log_weights)
    scaled = [(value - top) / 1024 for value in log_weights]
    weights = [math.exp(value) for value in scaled]
    if _before_effective_size(weights) >= minimum:
        return weights, 1.0
    low, high = 0.0, 1.0
    for _ in range(12):
        middle = (low + high) / 2
        if _before_effective_size([math.exp(middle * value) for value in scaled]) >= minimum:
            low = middle
        else:
            high = middle
    return [math.exp(low * value) for value in scaled], low


def _bits(result: tuple[list[float], float]) -> list[str]:
    weights, power = result
    return [value.hex() for value in [*weights, power]]


def _random_pool(rng: random.Random) -> tuple[list[int], float]:
    """Return log-weights (pools of 1 to 300 deals, spreads from none to hundreds of nats,
    shifted anywhere) and a minimum effective size (whole or not, up to beyond the pool)."""
    size = rng.choice((1, 2, 3, 16, 64, 64, 64, 128, rng.randint(1, 300)))
    spread = rng.choice((0, 1, 50, LOG_UNIT, 5 * LOG_UNIT, 40 * LOG_UNIT, 400 * LOG_UNIT))
    shift = rng.choice((0, -rng.randint(0, 10**6), rng.randint(0, 10**6)))
    pool = [shift - rng.randint(0, spread) for _ in range(size)]
    if rng.random() < 0.2:
        pool[rng.randrange(size)] += rng.randint(0, 60 * LOG_UNIT)
    minimum = rng.choice((16, 16, 1, 0, size, size + 1, rng.uniform(0, size * 1.1)))
    return pool, minimum


#: Pools of 64 deals weighed by the hard bot on ``python -m bench search``'s positions, with
#: the power and a digest of the weights the code before this module gave them (minimum 16).
RECORDED = (
    (
        (
            "-36106 -41016 -41863 -41257 -34098 -44368 -46284 -41625 -38581 -41811 -38873 -44419 "
            "-37140 -43002 -40896 -42436 -38785 -39505 -40374 -44864 -40895 -37947 -40001 -45624 "
            "-39563 -40293 -47765 -44795 -41929 -40391 -44240 -44214 -46737 -43972 -31094 -44235 "
            "-45000 -38363 -39970 -37830 -45000 -44931 -40718 -38430 -43002 -45109 -44992 -44427 "
            "-40896 -41863 -39505 -40570 -38442 -41537 -41537 -42316 -45959 -44054 -46737 -44925 "
            "-39271 -42444 -41625 -41320"
        ),
        "0x1.3080000000000p-2",
        "299486311ff08b04e990ceda2ed5a5e1",
    ),
    (
        (
            "-7711 -7918 -9705 -11012 -6319 -6133 -7751 -4530 -9911 -4070 -4577 -7763 -9887 "
            "-10554 -9487 -11083 -8128 -11408 -9937 -8157 -9929 -9633 -8165 -9291 -9820 -9902 "
            "-9585 -8461 -8008 -10342 -13628 -11703 -8119 -9682 -8712 -10554 -11330 -11331 "
            "-10246 -5588 -4440 -9013 -8608 -8218 -10434 -10423 -7939 -8477 -9542 -10215 -8145 "
            "-8549 -9724 -9566 -12184 -8436 -9314 -9860 -7643 -9910 -7456 -8549 -11606 -10078"
        ),
        "0x1.32a0000000000p-1",
        "b6720c112fb1c86f48c7d5c908edf575",
    ),
    (
        (
            "-11330 -15606 -14184 -12123 -14587 -15681 -13861 -14379 -15886 -16914 -19075 -13462 "
            "-9654 -15726 -12011 -14776 -15099 -12833 -14107 -11992 -15545 -14889 -15022 -10130 "
            "-16143 -12593 -15847 -17496 -18641 -12254 -19036 -13987 -12011 -11693 -14379 -14114 "
            "-11837 -14697 -14467 -16596 -15592 -16985 -12959 -16172 -15889 -14657 -15475 -12634 "
            "-14246 -11506 -16895 -16052 -13137 -14042 -12148 -16797 -14262 -14013 -15503 -14691 "
            "-14819 -15938 -12011 -18659"
        ),
        "0x1.63a0000000000p-1",
        "5aaf3789bc4a94628494b0bcf26d2351",
    ),
    (
        (
            "-6229 -10433 -11839 -8567 -10069 -8826 -10601 -10040 -8134 -6492 -10206 -9861 -9122 "
            "-6299 -13856 -8166 -9662 -11971 -10349 -11625 -10048 -8460 -10000 -10206 -10303 "
            "-9586 -10229 -9911 -8482 -8526 -12087 -13333 -10326 -11981 -11514 -8482 -11194 "
            "-8344 -5968 -9633 -6223 -12021 -6302 -12208 -10069 -7824 -13696 -7850 -11498 -9910 "
            "-9201 -6466 -10865 -10109 -10108 -11656 -11895 -9140 -13137 -12040 -9595 -11307 "
            "-5995 -9487"
        ),
        "0x1.a0a0000000000p-1",
        "27aacbeada505ae7e3afbd74fcc9f3d7",
    ),
    (
        (
            "-9048 -7165 -7301 -7628 -8547 -5587 -9691 -9343 -8841 -6591 -8547 -8655 -9137 -8950 "
            "-9136 -8962 -6870 -9000 -7740 -9016 -8722 -9780 -8962 -8535 -7127 -8053 -7127 -7301 "
            "-9257 -8763 -7301 -7529 -9070 -8535 -8053 -8329 -8753 -9365 -7391 -6779 -6363 -9070 "
            "-7441 -9485 -7302 -8426 -8547 -9758 -7717 -9137 -7783 -7805 -9660 -5064 -10262 "
            "-8721 -9257 -9137 -7301 -8240 -6820 -9660 -9137 -7007"
        ),
        "0x1.ffe0000000000p-1",
        "445a56bc6fc3577494a77792c8a46160",
    ),
    (
        (
            "-13730 -12245 -14813 -11716 -13892 -14882 -16775 -14764 -13967 -16840 -16756 -17377 "
            "-14507 -13955 -12277 -14417 -15744 -13234 -14118 -12365 -17052 -12859 -14428 -14470 "
            "-14013 -16596 -13847 -17119 -17366 -17238 -14259 -14656 -14074 -14261 -14025 -17189 "
            "-13514 -13431 -16046 -14831 -14170 -17376 -14080 -12335 -14310 -17496 -13165 -13786 "
            "-14005 -14536 -14270 -14466 -14080 -13773 -13917 -11974 -17081 -17563 -16529 -16929 "
            "-16933 -14172 -16894 -14052"
        ),
        "0x1.0000000000000p+0",
        "028d7560ebc8c8635f0706d30fb9f5fa",
    ),
    (
        (
            "-15337 -11113 -14922 -12516 -15018 -12773 -13592 -13688 -10985 -14723 -12971 -12971 "
            "-11943 -12473 -13390 -15906 -14989 -10709 -13020 -15132 -12268 -14073 -13525 -14420 "
            "-12911 -12516 -10617 -12516 -10985 -11184 -15584 -15179 -15239 -11830 -10266 -14074 "
            "-14243 -12353 -10909 -13200 -14875 -15701 -14646 -14122 -12861 -13525 -15042 -13455 "
            "-12517 -13296 -15179 -12420 -14261 -11184 -14331 -12533 -12604 -14982 -13525 -14784 "
            "-14134 -12102 -13730 -12923"
        ),
        "0x1.0000000000000p+0",
        "f293072f74bdc12b38643ad75ddc7107",
    ),
)


def _digest(result: tuple[list[float], float]) -> str:
    return hashlib.sha256(" ".join(_bits(result)).encode()).hexdigest()[:32]


def test_the_search_module_exports_the_chosen_implementation() -> None:
    expected = compiled if search.COMPILED else search_py
    assert expected is not None
    assert search.tempered_weights is expected.tempered_weights
    assert inference.tempered_weights is search.tempered_weights
    assert TEMPER_STEPS == 12 and LOG_UNIT == inference.LOG_UNIT == 1024


@needs_compiled
def test_compiled_and_pure_agree_to_the_bit_on_random_pools() -> None:
    assert compiled is not None
    rng = random.Random(34)
    tempered = 0
    for _ in range(3000):
        pool, minimum = _random_pool(rng)
        pure = search_py.tempered_weights(pool, minimum)
        assert _bits(compiled.tempered_weights(pool, minimum)) == _bits(pure), (pool, minimum)
        tempered += 0 < pure[1] < 1
    assert tempered > 300  # the bisection ran, not only the untempered path


@pytest.mark.parametrize("module", IMPLEMENTATIONS)
def test_both_give_what_the_code_before_gave(module: ModuleType) -> None:
    rng = random.Random(2026)
    for _ in range(1000):
        pool, minimum = _random_pool(rng)
        assert _bits(module.tempered_weights(pool, minimum)) == _bits(_before(pool, minimum))


@pytest.mark.parametrize("module", IMPLEMENTATIONS)
@pytest.mark.parametrize("record", RECORDED)
def test_recorded_pools_weigh_as_before(module: ModuleType, record: tuple[str, str, str]) -> None:
    text, power, digest = record
    pool = [int(value) for value in text.split()]
    assert len(pool) == 64
    result = module.tempered_weights(pool, 16)
    assert result[1].hex() == power
    assert _digest(result) == digest
    assert _bits(result) == _bits(_before(pool, 16))


@pytest.mark.parametrize("module", IMPLEMENTATIONS)
def test_huge_log_weights_and_bad_pools(module: ModuleType) -> None:
    pool = [0, -(2**60), 2**61, 5, -3 * LOG_UNIT]
    assert _bits(module.tempered_weights(pool, 2)) == _bits(_before(pool, 2))
    with pytest.raises(ValueError, match="at least one log-weight"):
        module.tempered_weights([], 16)


def _plans(count: int) -> list[DealPlan]:
    plans = []
    for seed in range(count):
        controller = Controller()
        controller.new_match(seed=seed, seats=["bot"] * 4)
        play_randomly(controller, random.Random(seed), 4 + seed * 7 % 40)
        if controller.phase == "play":
            observation = controller.observation(seed % 4)
            plans.append(deal_plan(DealSampler(read_knowledge(observation))))
    return plans


@needs_compiled
def test_compiled_draws_follow_the_twin_whatever_the_order_of_plans() -> None:
    assert compiled is not None
    plans = _plans(12)
    assert len(plans) >= 6
    rng = random.Random(5)
    for _ in range(200):
        plan = rng.choice(plans)
        block = rng.randrange(50)
        assert compiled.sample_deals(plan, 16, 11, block * 16) == search_py.sample_deals(
            plan, 16, 11, block * 16
        )
    # The same plan's batches one after the other (the hard bot's way), and an equal copy.
    plan = plans[0]
    for block in range(20):
        assert compiled.sample_deals(plan, 8, 3, block * 8) == search_py.sample_deals(
            plan, 8, 3, block * 8
        )
    copy = DealPlan(*(tuple(part) for part in plan))
    assert compiled.sample_deals(copy, 8, 3, 0) == compiled.sample_deals(plan, 8, 3, 0)
    # A plan of lists may change between calls: it is read again every time.
    mutable = DealPlan(*(list(part) for part in plans[1]))  # type: ignore[arg-type]
    first = compiled.sample_deals(mutable, 8, 3, 0)
    assert first == search_py.sample_deals(mutable, 8, 3, 0)
    mutable.known[0], mutable.known[1] = mutable.known[1], mutable.known[0]  # type: ignore[index]
    assert compiled.sample_deals(mutable, 8, 3, 0) == search_py.sample_deals(mutable, 8, 3, 0)
    assert compiled.sample_deals(mutable, 8, 3, 0) != first
