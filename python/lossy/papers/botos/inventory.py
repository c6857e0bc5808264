"""Every item of Botoș, Polgar, Bota (shared/papers/botos-fectcp.md) and what covers it:
the reproduction's claims, the core's and the package's unit tests, or why nothing does."""

from __future__ import annotations

from ..inventory import Inventory, Item

CONTROL = "crates/lossy-core/src/transport/fectcp/control.rs"
SENDER = "crates/lossy-core/src/transport/fectcp/sender.rs"
RUNS = "crates/lossy-core/tests/fectcp.rs"
NEYMAN = "crates/lossy-core/src/channel/neyman_tests.rs"
OURS = "tests/python/test_botos.py"
DESIGN = "a property of the design (where it runs, what it needs), not of a run"

ITEMS = [
    Item("Abstract, §I ¶2", "§I", "statement",
         "TCP takes channel losses for congestion and its throughput degrades on high-loss links ([1], [2])",
         not_covered="background the paper cites; Figs. 3–4 draw TCP's fall with loss, but the paper gives no size "
                     "to hold it to (the crossing claim holds where FECTCP passes it)"),
    Item("§I ¶3–5", "§I", "statement",
         "split connections need proxies, ECN needs every network entity; FECTCP needs neither",
         not_covered=DESIGN),
    Item("§II A, footnote 1", "§II A", "statement",
         "a three-way handshake carries the code's parameters; teardown as TCP's",
         tests=[f"{RUNS}::a_clean_transfer_needs_exactly_the_fixed_overhead",
                f"{RUNS}::a_lost_syn_is_sent_again_after_the_handshake_timeout",
                f"{SENDER}::a_fin_stops_the_sender_and_is_answered"]),
    Item("§II B, footnotes 2–3", "§II B", "statement",
         "each segment a new, uniquely numbered symbol of a rateless code; no retransmissions; the transfer ends "
         "when the receiver can decode; cumulative ACKs cost no reliability",
         tests=[f"{RUNS}::real_decoders_recover_the_file_byte_for_byte",
                f"{RUNS}::a_clean_transfer_needs_exactly_the_fixed_overhead",
                "crates/lossy-core/tests/rateless.rs::real_decoders_recover_random_files_from_random_subsets_and_orders"]),
    Item("§II C ¶2", "§II C", "statement",
         "Neyman Type A: Poisson clusters of errors, a Poisson number of errors per cluster",
         tests=[f"{NEYMAN}::block_counts_follow_neyman_type_a"]),
    Item("§II C ¶2 (end)", "§II C", "statement",
         "the model suits channels with few error mechanisms (wired, slow fading, steady interference)",
         not_covered="a remark on where the model applies; nothing to run"),
    Item("Fig. 1", "§II C", "figure", "the CDF of the distance between consecutive losses of 1500-byte packets",
         claims=["fig1-cdf-is-neyman"],
         tests=[f"{NEYMAN}::fig1_distance_between_losses_of_1500_byte_packets",
                "tests/python/test_loss.py::test_a_sequence_has_the_closed_forms_loss_and_fig1_point",
                f"{OURS}::test_fig1_distances_match_the_neyman_closed_form"]),
    Item("§II C ¶3", "§II C", "statement",
         "consecutive packet losses occur with a probability roughly equal to the mean loss rate (it depends on the "
         "clusters' length, which the paper does not give: our reading's clusters of 20 bits meet it from about 0.7 %, "
         "clusters spread over packets do not)",
         claims=["next-loss-about-p"],
         tests=[f"{NEYMAN}::fig1_distance_between_losses_of_1500_byte_packets",
                f"{OURS}::test_fig1_next_loss_is_about_p_only_for_clusters_shorter_than_a_packet"]),
    Item("Eq. (1)", "§II D", "equations", "sRTT ← α·sRTT + (1 − α)·mean RTT, after the mean and variance update",
         tests=[f"{CONTROL}::eq1_smooths_the_mean_with_alpha", f"{CONTROL}::welford_mean_and_population_variance"]),
    Item("Eqs. (2)–(3)", "§II D", "equations",
         "ΔT_TO = (1 + β)(sRTT + σ_RTT), β = 1/cwnd: long enough for the next segment's ACK",
         tests=[f"{CONTROL}::eq2_timer_is_one_plus_inverse_cwnd_times_srtt_plus_sigma",
                f"{CONTROL}::the_next_segments_ack_beats_a_lost_segments_timer"]),
    Item("§II D ¶1", "§II D", "statement", "cwnd has no upper bound; a window's segments leave evenly spaced",
         tests=[f"{SENDER}::segments_are_paced_over_srtt", f"{CONTROL}::pacing_spreads_a_window_over_srtt"]),
    Item("§II D ¶3–4", "§II D", "statement",
         "TCP's slow start and congestion avoidance; a single loss is ignored, consecutive losses reduce the rate",
         tests=[f"{CONTROL}::slow_start_then_avoidance_and_halving", f"{SENDER}::a_single_loss_is_covered_by_the_next_ack",
                f"{SENDER}::consecutive_losses_expire_a_timer_and_halve_the_window_once",
                f"{RUNS}::at_five_percent_loss_it_keeps_the_link_busy"]),
    Item("§II D ¶2", "§II D", "statement",
         "DropTail drops consecutive packets of every flow when full; RED drops with a probability between its "
         "thresholds and like DropTail above",
         claims=["tcp-friendly-when-congested"],
         tests=["crates/lossy-core/tests/red.rs::red_holds_the_average_between_its_thresholds_and_overflows_less_than_drop_tail"]),
    Item("§II D ¶5", "§II D", "statement",
         "with RED between its thresholds and few channel errors, router drops do not always reduce the rate",
         claims=["tcp-friendly-when-congested"]),
    Item("§III, Fig. 2", "§III", "figure", "the scenario: WLAN clients at 1 Mbit/s behind a server and a router",
         not_covered="Fig. 2 is missing from the text; our reading (scenarios/botos.toml, a 1 Mbit/s point-to-point "
                     "last hop) is in the readings chosen"),
    Item("§III ¶2", "§III", "statement", "results for other WLAN rates are similar to 1 Mbit/s's",
         not_covered="the paper shows no other rate to compare with; we run 1 Mbit/s only"),
    Item("§IV A ¶1", "§IV A", "statement",
         "files of several MB to tens of MB (steady state), uncongested wired links, losses 0.1–25 %, 20 and 100 ms",
         not_covered="the setup the sweeps follow (10 MB files, 0.1–30 %), not a result"),
    Item("Fig. 3", "§IV A", "figure", "average throughput against segment loss, FECTCP and TCPs, 20 ms",
         claims=["fectcp-wins-high-loss", "tcp-wins-low-loss", "fectcp-falls-at-25"]),
    Item("Fig. 4", "§IV A", "figure", "average throughput against segment loss, FECTCP and TCPs, 100 ms",
         claims=["fectcp-wins-high-loss", "fectcp-falls-at-25", "delay-costs-fectcp-little", "delay-costs-tcp"]),
    Item("§IV A ¶3", "§IV A", "statement",
         "a performance penalty on TCP is visible at 100 ms; the behaviour against loss is still the same",
         claims=["delay-costs-tcp", "fectcp-wins-high-loss"]),
    Item("§IV A ¶4", "§IV A", "statement",
         "FECTCP suffers a small penalty at 100 ms and still performs better than TCP at high loss",
         claims=["delay-costs-fectcp-little", "fectcp-wins-high-loss"]),
    Item("§IV A ¶5", "§IV A", "statement",
         "FECTCP outperforms TCP at high loss; below 5 % TCP outperforms FECTCP",
         claims=["fectcp-wins-high-loss"]),
    Item("§IV A ¶5 (cont.)", "§IV A", "statement",
         "the low-loss gap is the rateless code's overhead, 5 % on average",
         claims=["tcp-wins-low-loss"]),
    Item("§IV A ¶6", "§IV A", "statement",
         "good performance in 5–25 %, where consecutive channel losses are rare",
         claims=["fectcp-wins-high-loss"]),
    Item("§IV A ¶6 (cont.)", "§IV A", "statement",
         "at ≥ 25 % FECTCP's performance starts to decrease, as consecutive channel losses become likely",
         claims=["fectcp-falls-at-25"]),
    Item("Fig. 5", "§IV B", "figure", "a TCP flow joining a FECTCP flow gets its share; both at a reasonable rate",
         claims=["tcp-gets-its-share"]),
    Item("Fig. 6", "§IV B", "figure", "FECTCP reduces its rate for a 20 kB/s UDP CBR flow, as expected",
         claims=["yields-to-udp"]),
    Item("§IV B ¶4, footnote 5", "§IV B", "statement",
         "every other simulation shows FECTCP network friendly: a fair share for TCP flows, yielding to UDP",
         claims=["tcp-friendly-when-congested", "tcp-gets-its-share", "yields-to-udp"]),
    Item("§V ¶1", "§V", "statement",
         "better than TCP at high loss, poorer at low loss because of the code's overhead",
         claims=["fectcp-wins-high-loss", "tcp-wins-low-loss"]),
    Item("§V ¶1 (cont.)", "§V", "statement",
         "reduces its rate under congestion and shares bandwidth fairly with other flows",
         claims=["tcp-friendly-when-congested", "tcp-gets-its-share", "yields-to-udp"]),
    Item("§V ¶1 (end)", "§V", "statement", "no proxies and no ECN: flow control only at the two end hosts",
         not_covered=DESIGN),
]

INVENTORY = Inventory(paper="botos-fectcp.md", items=ITEMS)

__all__ = ["INVENTORY"]
