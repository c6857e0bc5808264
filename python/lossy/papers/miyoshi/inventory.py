"""Every figure, table, equation and statement of Miyoshi, Sugano, Murata (IEICE 2002)
with what holds it to the simulator: a claim of this reproduction, a unit test, or why
nothing does. Read from shared/papers/miyoshi-adaptive-fec-eln.md, section by section."""

from __future__ import annotations

from ..inventory import Inventory, Item

PY = "tests/python/test_miyoshi.py::"
CORE = "crates/lossy-core/"

ITEMS = [
    # §1–2: the setting.
    Item("§1 ¶3", "§1", "statement", "Eckhardt and Steenkiste's adaptive FEC needs probe datagrams; no adaptive FEC "
         "without probes had been proposed", not_covered="a statement about the literature, not a result to run"),
    Item("Fig. 1", "§2", "figure", "the network: FH, the wired hops, BS and MH on the IMT-2000 downlink",
         tests=[f"{PY}test_the_scenario_is_table_1"]),
    Item("Table 1", "§2", "table", "TCP segment 100 B, ACK 40 B, buffers 50 kB, delays τ1–τ4 of 1 ms; a 384 kbit/s "
         "downlink", tests=[f"{PY}test_the_scenario_is_table_1"]),
    Item("§2 ¶1", "§2", "statement", "packet loss comes from transmission errors; loss to buffer overflow is "
         "negligible", tests=[f"{PY}test_no_packet_is_lost_to_congestion"]),
    # §3: the schemes and Fig. 2.
    Item("§3 ¶2", "§3", "statement", "Reno: fast retransmit and fast recovery halve the window on three duplicate "
         "ACKs; a timeout draws it back to one segment",
         tests=[f"{CORE}src/tcp/sender_tests.rs::third_duplicate_ack_retransmits_the_first_unacked_segment",
                f"{CORE}src/tcp/sender_tests.rs::timeout_goes_back_n_with_backoff_and_karn"]),
    Item("§3 ¶4", "§3", "statement", "SACK is of little use with the small windows of a lossy cellular link; ECN "
         "cannot tell transmission errors", not_covered="the paper runs neither SACK nor ECN and gives no result "
         "for them"),
    Item("§3 Snoop", "§3", "statement", "Snoop caches segments at BS and retransmits them on the wireless link only",
         tests=[f"{CORE}tests/snoop.rs::a_wireless_loss_is_repaired_locally_and_the_sender_never_hears_of_it"]),
    Item("§3 ELN", "§3", "statement", "ELN: BS caches sequence numbers, marks the ACKs of a segment lost on the "
         "wireless link, and the sender does not perform congestion control on them",
         tests=[f"{CORE}src/agents/eln.rs::wireless_loss_gets_eln_on_duplicates",
                f"{CORE}src/tcp/sender_tests.rs::eln_duplicates_retransmit_without_reduction"]),
    Item("§3 Snoop+ELN", "§3", "statement", "Snoop+ELN, the combination of the two",
         tests=[f"{CORE}src/agents/snoop_tests.rs::snoop_eln_reports_each_repaired_loss_once_on_the_new_ack"]),
    Item("Fig. 2", "§3", "figure", "TCP throughput of Reno, ELN, Snoop+ELN and FEC BCH(127,92) against BER",
         claims=["fec-above-1e-4", "snoop-eln-best-low-ber"]),
    Item("§3 ¶ Fig. 2 (a)", "§3", "statement", "FEC is most effective above BER 10⁻⁴; below, its overhead makes it "
         "smaller than the other schemes", claims=["fec-above-1e-4"]),
    Item("§3 ¶ Fig. 2 (b)", "§3", "statement", "in the lower BER region Snoop+ELN achieves the best performance",
         claims=["snoop-eln-best-low-ber"]),
    # §4: Fig. 3, the controller, the window.
    Item("§4 codes", "§4", "statement", "BCH(127,92) corrects 5 bits, (127,64) 10 and (127,36) 15",
         tests=[f"{CORE}src/coding/bch_tests.rs::the_papers_codes_have_their_k_and_t_from_n_k_and_from_n_t",
                f"{PY}test_bch36_is_the_strongest_and_slowest"]),
    Item("Fig. 3", "§4", "figure", "TCP throughput of Snoop+ELN with each BCH code against BER, the thresholds A–D "
         "marked", claims=["optimal-code-per-ber"]),
    Item("§4 ¶1 (a)", "§4", "statement", "an optimal FEC parameter exists, dependent on BER",
         claims=["optimal-code-per-ber"]),
    Item("§4 ¶1 (b)", "§4", "statement", "adaptive FEC combined with Snoop+ELN is more effective against TCP "
         "throughput degradation", claims=["adaptive-tcp"]),
    Item("§4 ¶2", "§4", "statement", "with ELN the sender takes losses for transmission errors and performs no "
         "congestion control", tests=[f"{CORE}src/tcp/cc/aimd.rs::eln_keeps_the_window_and_ssthresh"]),
    Item("§4 ¶3", "§4", "statement", "the code steps up when p_err from ELN exceeds a threshold and down otherwise, "
         "after Eckhardt and Steenkiste's two-of-ten rule; the algorithm must not be swayed by sporadic errors",
         tests=[f"{CORE}src/fec_control.rs::steps_one_code_per_window_and_holds_between_thresholds",
                f"{CORE}src/fec_control.rs::a_failed_probe_doubles_the_wait_and_one_that_holds_resets_it",
                f"{CORE}tests/adaptive_fec.rs::a_steady_channel_does_not_make_the_code_oscillate",
                f"{CORE}src/tcp/adaptive_fec.rs::each_eln_ack_number_is_one_loss_and_segments_count_when_acknowledged",
                f"{CORE}src/tcp/adaptive_fec.rs::the_links_losses_fill_the_window_where_almost_nothing_is_delivered",
                f"{CORE}tests/adaptive_fec.rs::where_no_fec_delivers_almost_nothing_the_senders_controller_steps_up"]),
    Item("Fig. 4", "§4", "figure", "the method of changing the code: thresholds A–D on p_err",
         tests=[f"{PY}test_crossing_and_thresholds",
                f"{CORE}tests/adaptive_fec.rs::snoop_eln_with_the_senders_adaptive_fec_changes_code_and_beats_no_fec"]),
    Item("§4 A–D", "§4", "statement", "the thresholds A–D are read off Fig. 3's curves",
         tests=[f"{PY}test_crossing_and_thresholds", f"{PY}test_the_thresholds_are_read_at_the_simulated_crossings"]),
    Item("Eq. 1", "§4", "equations", "f_d = v·f_c/c: 3 Hz per m/s at 900 MHz", tests=[f"{PY}test_doppler_of_eq_1"]),
    Item("§4 ¶4", "§4", "statement", "the fading is roughly constant over the period of measuring p_err (10 samples "
         "of 1000-byte frames at Mbit/s rates)", claims=["window-coherence"]),
    # §5: the Gilbert experiment.
    Item("Fig. 5, Eqs. 2–4", "§5", "equations", "the Gilbert model: p_GE = 1/L_G, p_EG = 1/L_E, geometric stays "
         "G(p) = ln(u)/ln(1 − p)", tests=[f"{CORE}src/channel/gilbert.rs::miyoshi_table_2_per_packet"]),
    Item("Table 2", "§5", "table", "p_GE 0.006 with p_EG 0.05 (lower BER) or 0.007 (higher BER)",
         tests=[f"{PY}test_table_2_and_the_captions", f"{CORE}src/channel/gilbert.rs::miyoshi_table_2_per_packet"]),
    Item("Fig. 6", "§5", "figure", "the flow of adaptive FEC with Snoop+ELN: per packet, the channel, the code, "
         "the count",
         tests=[f"{CORE}src/link/fec_stream.rs::adaptive_fec_switches_with_the_gilbert_state",
                f"{PY}test_the_stream_matches_the_appendix_on_independent_errors"]),
    Item("§5 ¶3", "§5", "statement", "50,000 packets of 800 bits; bit errors random within a packet",
         tests=[f"{PY}test_the_stream_matches_the_appendix_on_independent_errors"]),
    Item("Table 3 (adaptive row)", "§5", "table", "lower BER case: adaptive FEC 46,706 available against 45,539 for "
         "no FEC; 2,292 lost, 1,002 overhead", claims=["adaptive-table3", "adaptive-losses-overhead"]),
    Item("Table 4 (adaptive row)", "§5", "table", "higher BER case: adaptive FEC 32,564 available against 27,758 for "
         "no FEC; 8,213 lost, 9,223 overhead", claims=["adaptive-table4", "adaptive-losses-overhead"]),
    Item("Tables 3–4 (fixed rows)", "§5", "table", "lost, received, overhead and available packets of no FEC and "
         "each fixed code (the first one FEC(127,94): 33/127 of each received packet)",
         claims=["rows-lost", "rows-none-lost"], tests=[f"{PY}test_the_tables_first_code_is_127_94"]),
    Item("§5 captions", "§5", "statement", "p_b = 0.00015 with p_err = 0.090, p_b = 0.00075 with p_err = 0.445",
         tests=[f"{PY}test_each_reading_of_the_error_state_reproduces_what_it_promises",
                f"{PY}test_table_2_and_the_captions"]),
    Item("§5 ¶4 (a)", "§5", "statement", "adaptive FEC achieves the best performance of all rows",
         claims=["adaptive-table3", "adaptive-table4"]),
    Item("§5 ¶4 (b)", "§5", "statement", "improved by 2 % in Table 3 and by 10 % in Table 4",
         claims=["adaptive-table3", "adaptive-table4"], tests=[f"{PY}test_the_papers_own_gains"]),
    Item("§5 ¶4 (c)", "§5", "statement", "adaptive FEC encounters fewer losses than no FEC and needs less overhead "
         "than fixed FEC", claims=["adaptive-losses-overhead"]),
    # Appendix.
    Item("Eqs. A·1–A·3", "Appendix", "equations", "without FEC: p_err = 1 − (1 − p_b)^l, P_loss, P_rcv",
         tests=[f"{PY}test_eq_a1_and_a4_by_hand", f"{PY}test_the_stream_matches_the_appendix_on_independent_errors",
                f"{CORE}src/link/fec_stream.rs::independent_errors_match_eqs_a1_and_a4"]),
    Item("Eq. A·4", "Appendix", "equations", "fixed FEC: p_err(l, c), binomial beyond c errors",
         tests=[f"{PY}test_eq_a1_and_a4_by_hand", f"{CORE}src/link/fec_stream.rs::independent_errors_match_eqs_a1_and_a4"]),
    Item("Eq. A·5", "Appendix", "equations", "overhead H = d/l as printed; the tables use (l − d)/l",
         tests=[f"{PY}test_eq_a5_both_ways_and_the_tables_counts"]),
    Item("Eqs. A·6–A·8", "Appendix", "equations", "P_loss, P_head = H·P_send, P_rcv = P_send − P_loss − P_head",
         tests=[f"{PY}test_eq_a5_both_ways_and_the_tables_counts",
                f"{PY}test_the_stream_matches_the_appendix_on_independent_errors"]),
    # §6 and the summary repeat §3–5.
    Item("§6, Summary", "§6", "statement", "adaptive FEC with ELN achieves better performance than conventional "
         "fixed FEC", claims=["adaptive-table3", "adaptive-table4", "adaptive-tcp"]),
]

INVENTORY = Inventory(paper="miyoshi-adaptive-fec-eln.md", items=ITEMS)

__all__ = ["INVENTORY"]
