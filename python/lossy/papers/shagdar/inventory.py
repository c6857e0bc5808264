"""Every figure, equation and statement of Shagdar, Shirazi, Zhang (shared/papers/
shagdar-ewln-ecn.md) and what covers it: a claim of this reproduction, a unit test of the
mechanism, or why nothing does."""

from __future__ import annotations

from ..inventory import Inventory, Item

CORE = "crates/lossy-core"
EWLN_RS = f"{CORE}/src/tcp/ewln.rs"
ECN_TESTS = f"{CORE}/src/tcp/ecn_tests.rs"
RED_TESTS = f"{CORE}/src/net/queue/red_tests.rs"

T1_NO_MARKS = ("cannot fail here: topology 1's only RED queue (BS -> FH, 10 Mbit/s behind a 2 Mbit/s radio) never "
               "holds a queue, so it marks 0 packets in every ECN run and ECN-X and X are the same runs bit for bit "
               "(tests/python/test_shagdar_claims.py::test_topology_1_never_marks_so_ecn_cannot_differ holds it); "
               "ECN's effect is tested where a RED queue congests, topology 2: ecn-gain-t2, ecn-avoids-drops-t2")
NEVER_FIRES_AT_11_5 = ("cannot fail here: at 11.5 dB the MAC's 4 attempts recover every frame, EWLN fires 0 times in "
                       "every run of Figs. 8–9 (the notes of ewln-decreases-t2 count it), so EWLN-X and X are the "
                       "same runs and an equality claim would pass by construction; where EWLN acts (≤ 10 dB) the "
                       "gain is ewln-gain-t2")

ITEMS = [
    Item("Abstract", "Abstract", "statement",
         "EWLN set from MAC information improves ECN-based TCP over wired-and-wireless networks",
         claims=("ewln-gain-t1", "ewln-gain-t2", "ewln-ecn-highest-t2")),
    Item("§I ¶3", "I", "statement",
         "ECN-based TCP takes a wireless loss for congestion and invokes congestion control",
         not_covered="the paper's premise, stated without a result of its own; the plain ECN schemes of Figs. 5 "
                     "and 8 show it only through the EWLN gain claims"),
    Item("§I ¶5", "I", "statement",
         "Earlier EWLN: the receiver sets it (wired-to-wireless); a Snoop-like agent at the base station sets it "
         "on ACKs (wireless-to-wired)",
         not_covered="prior work the paper describes and does not evaluate; the reproduction's `agents` figure "
                     "(beyond the paper) runs ELN and Snoop at the base station beside EWLN, without a claim"),
    Item("§I ¶6", "I", "statement",
         "Shortcomings of agent-based EWLN: heterogeneous, costly at the base station, blind to link-layer "
         "recovery, outside the layering",
         not_covered="design arguments; the paper measures none of them"),
    Item("§I ¶7", "I", "statement",
         "One implementation at mobile hosts and base stations serves both directions",
         not_covered="the paper shows results for one direction per figure (the text's MH → FH; Fig. 5's caption "
                     "says wired-to-wireless); we draw Fig. 5 in both directions (panel b) without a claim, as the "
                     "paper states no number for the other"),
    Item("§II", "II", "statement", "ECN: ECT and CE in the IP header, ECN-Echo and CWR in the TCP header",
         tests=(f"{ECN_TESTS}::ect_only_on_new_data_not_on_retransmissions_or_acks",
                f"{ECN_TESTS}::ece_repeats_until_cwr_and_a_ce_segment_is_acked_at_once")),
    Item("§II A", "II A", "statement",
         "RED: no marks below min_th, every packet above max_th, a probability in between",
         tests=(f"{RED_TESTS}::p_b_rises_linearly_then_gently_to_one_at_twice_max_th",
                f"{RED_TESTS}::ect_packets_are_marked_below_twice_max_th_and_dropped_beyond",
                f"{CORE}/tests/red.rs::red_holds_the_average_between_its_thresholds_and_overflows_less_than_drop_tail")),
    Item("§II B", "II B", "statement",
         "ECN avoids unnecessary drops; a full queue still drops, and then ECN cannot tell congestion from error",
         claims=("ecn-avoids-drops-t2",),
         tests=(f"{RED_TESTS}::a_full_queue_drops_whatever_the_average_and_never_marks",
                f"{CORE}/tests/ecn.rs::ecn_reno_over_red_drops_and_resends_less_at_equal_goodput")),
    Item("§II C–D", "II C–D", "statement",
         "The receiver echoes CE until CWR; the sender reduces its window and sets CWR",
         tests=(f"{ECN_TESTS}::ece_halves_without_retransmitting_or_growing_on_that_ack",
                f"{ECN_TESTS}::one_reduction_per_window_and_cwr_once_on_the_next_new_data")),
    Item("Fig. 1", "III A", "figure",
         "The MAC sets EWLN on a frame still corrupted after its retries: payload dropped, header passed on",
         tests=(f"{CORE}/tests/wlan.rs::ewln_headers_reach_the_receiver_counted_apart_from_data",)),
    Item("§III A ¶3", "III A", "statement",
         "The end of the local retries is detected when the next frame's sequence number differs from the "
         "buffered one",
         not_covered="our MAC counts its own attempts and knows when it gives up; the buffer-and-compare is the "
                     "paper's way of learning the same thing, with no result of its own"),
    Item("Fig. 2", "III B", "figure",
         "The receiver ACKs with EWLN naming the corrupted segment, on duplicates too, until its retransmission "
         "or a new corrupted segment arrives",
         tests=(f"{EWLN_RS}::fig_2_the_receiver_names_the_corrupted_segment_until_it_arrives_or_another_replaces_it",)),
    Item("Fig. 3", "III C", "figure",
         "The sender resends on the first EWLN ACK, without congestion control; without EWLN, normal fast "
         "retransmit and recovery",
         tests=(f"{EWLN_RS}::fig_3_the_sender_resends_once_per_notice",
                f"{CORE}/tests/wlan.rs::ewln_end_to_end_resends_at_once_and_spares_the_window",
                f"{CORE}/src/tcp/sender_tests.rs::fig_3_a_corrupted_retransmission_is_a_new_notice_resent_at_once",
                f"{CORE}/src/tcp/sender_tests.rs::fig_3_with_sack_an_ewln_named_hole_is_lost_not_congested"),
         claims=("ewln-sack-no-congestion-response-t1",)),
    Item("Eq. (1)", "IV", "equations", "DPSK bit error probability ½·exp(−10^(SNR/10))",
         tests=(f"{CORE}/src/channel/snr.rs::eq_1_of_shagdar_and_bpsk",)),
    Item("§IV ¶1", "IV", "statement", "ns-2 with an 802.11b MAC and a radio propagation model",
         tests=(f"{CORE}/tests/wlan.rs::saturated_udp_stations_through_the_world_match_bianchi",)),
    Item("Fig. 4", "IV A", "figure", "Topology 1: MH – BS wireless, BS – FH wired",
         not_covered="missing from the text; scenarios/shagdar-t1.toml is our reading (the wired link's rate and "
                     "delay are not given)"),
    Item("§IV A ¶1", "IV A", "statement",
         "Settings: 2 Mbit/s radio, 1 KB data packets, 40-byte ACKs, a 20 KB maximum window; 80 s, 100 runs",
         not_covered="settings, taken as given into scenarios/shagdar-t1.toml, -t2.toml and the sweeps"),
    Item("Fig. 5", "IV A", "figure", "Reno, ECN-Reno, EWLN-Reno, EWLN-ECN-Reno against SNR, topology 1",
         claims=("ewln-gain-t1", "ewln-best-12x-t1")),
    Item("§IV A ¶3a", "IV A", "statement", "EWLN significantly improves Reno's throughput over SNR [8.5, 11.5] dB",
         claims=("ewln-gain-t1",)),
    Item("§IV A ¶3b", "IV A", "statement",
         "Almost no difference between EWLN-Reno and EWLN-ECN-Reno: in topology 1 ECN bits almost will not be set",
         not_covered=T1_NO_MARKS),
    Item("Fig. 6", "IV A", "figure", "SACK, ECN-SACK, EWLN-SACK, EWLN-ECN-SACK against SNR, topology 1",
         claims=("ewln-gain-sack-t1", "ewln-sack-no-congestion-response-t1")),
    Item("§IV A ¶5a", "IV A", "statement", "Even with SACK, EWLN significantly improves throughput over [8.5, 11] dB",
         claims=("ewln-gain-sack-t1",)),
    Item("§IV A ¶5b", "IV A", "statement", "In the best case EWLN-Reno's throughput is 12 times Reno's",
         claims=("ewln-best-12x-t1",)),
    Item("§IV A ¶5c", "IV A", "statement",
         "Without congestion no improvement from ECN could be seen",
         not_covered=T1_NO_MARKS),
    Item("Fig. 7", "IV B", "figure", "Topology 2: W1 and W2 → R1 → R2 (bottleneck) → M1 over the WLAN and → W3",
         not_covered="missing from the text, with its rates and buffers; scenarios/shagdar-t2.toml is our reading "
                     "(a 1.5 Mbit/s RED/ECN bottleneck that congests at every SNR)"),
    Item("§IV B ¶2", "IV B", "statement", "Topology 2 has losses from both congestion and transmission errors",
         not_covered="a property of the setting, not a result; the notes of ecn-gain-t2 (RED drops per run) and "
                     "ewln-gain-t2 (EWLN resends per run) count both"),
    Item("Fig. 8", "IV B", "figure", "The Reno four against SNR, topology 2",
         claims=("ewln-gain-t2", "ewln-decreases-t2", "ecn-gain-t2", "ecn-avoids-drops-t2", "ewln-ecn-highest-t2")),
    Item("Fig. 9", "IV B", "figure", "The SACK four against SNR, topology 2",
         claims=("ewln-gain-t2", "ewln-decreases-t2", "ecn-gain-t2", "ecn-avoids-drops-t2", "ewln-ecn-highest-t2")),
    Item("§IV B ¶4a", "IV B", "statement",
         "EWLN-Reno and EWLN-SACK significantly improve throughput over [8.5, 10] dB",
         claims=("ewln-gain-t2",)),
    Item("§IV B ¶4b", "IV B", "statement", "Above 10 dB the throughput of EWLN-Reno and EWLN-SACK decreases",
         claims=("ewln-decreases-t2",)),
    Item("§IV B ¶4c", "IV B", "statement", "At 11.5 dB EWLN-Reno and EWLN-SACK equal Reno and SACK",
         not_covered=NEVER_FIRES_AT_11_5),
    Item("§IV B ¶4d", "IV B", "statement",
         "The reason: at high SNR losses are mainly congestion and EWLN-capable TCP behaves as the original",
         not_covered="the explanation of ¶4c, true by construction here: from 11 dB no wireless loss reaches TCP "
                     "(0 EWLN resends in every run, about 0.1 per run at 10.5 dB) while the bottleneck drops at "
                     "every SNR"),
    Item("§IV B ¶4e", "IV B", "statement",
         "EWLN-ECN differs from EWLN because ECN avoids unnecessary packet drops",
         claims=("ecn-gain-t2", "ecn-avoids-drops-t2")),
    Item("§IV B ¶5", "IV B", "statement", "EWLN-ECN gives the highest throughput over all SNRs",
         claims=("ewln-ecn-highest-t2", "ecn-gain-t2")),
    Item("§V ¶1", "V", "statement",
         "ECN significantly improves TCP over wired networks but cannot tell wireless errors from congestion",
         not_covered="background from the cited literature, not a result of this paper"),
    Item("§V ¶2", "V", "statement",
         "EWLN significantly improves TCP where losses are transmission errors, or congestion and transmission errors",
         claims=("ewln-gain-t1", "ewln-gain-sack-t1", "ewln-gain-t2")),
]

INVENTORY = Inventory(paper="shagdar-ewln-ecn.md", items=ITEMS)

__all__ = ["INVENTORY"]
