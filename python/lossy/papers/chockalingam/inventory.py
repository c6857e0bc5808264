"""Every figure, table, equation and statement of Chockalingam, Zorzi, Tralli (ICC 1999)
with what holds it to the simulator: the reproduction's claims, unit tests of the
mechanisms it needs, or why nothing does."""

from __future__ import annotations

from ..inventory import Inventory, Item

ARQ = "crates/lossy-core/tests/link_arq.rs"
FIT = "tests/python/test_channel_fit.py"
FIT_RS = "crates/lossy-core/src/channel/fit_tests.rs"
RAYLEIGH = "crates/lossy-core/src/channel/rayleigh_tests.rs"
THRESHOLD = "tests/python/test_threshold_model.py"
BCH = "tests/python/test_bch.py"
SETTING = "a setting, not a result: scenarios/chockalingam.toml and the sweeps set it (the paper's page, 'Our reading')"

INVENTORY = Inventory(paper="chockalingam-ll-fec-arq.md", items=[
    Item("Fig. 1", "§II", "figure", "the TCP/LL protocol stack between the base station's IWF and the mobile",
         not_covered="a diagram; of its layers only TCP and the link layer carry behaviour here, as §II says "
                     "('we focus mainly on TCP and LL')"),
    Item("§II ¶4", "§II", "statement", "the link layer cuts each TCP packet into link packets, repairs them by "
         "NAK-based selective repeat with a limited number of attempts and leaves what it cannot repair to TCP",
         tests=[f"{ARQ}::enough_attempts_hide_bit_errors_from_tcp",
                f"{ARQ}::one_attempt_loses_a_packet_when_any_piece_fails"]),
    Item("§II ¶5", "§II", "statement", "BCH(255,131,18) and BCH(255,87,26): 131 and 87 information bits in 255, "
         "correcting up to 18 and 26 errors (about rate 1/2 and 1/3)",
         tests=[f"{BCH}::test_generator_t_and_encodings_equal_galois",
                f"{BCH}::test_decodings_within_and_beyond_t_equal_galois"]),
    Item("§III ¶1", "§III", "statement", "the system: bulk transfer, data phase only, 1.5 Mbps, N_T and N_L data "
         "bytes, ⌈N_T/N_L⌉ link packets, 1024 B ≈ 5.5 ms, minimum timeout 100 packets (550 ms), no mobility",
         not_covered=SETTING),
    Item("§III ¶1 (NAK/ACK)", "§III", "statement", "negligible bandwidth-delay product: link-layer NAKs and TCP "
         "ACKs arrive instantaneously and error-free",
         tests=[f"{ARQ}::naks_that_take_no_time_and_are_never_lost_give_the_instant_links_tcp_results_exactly"]),
    Item("§III.A ¶1", "§III.A", "statement", "the threshold model of [10]: a packet is lost iff the SNR is below "
         "a threshold, with analytic Markov parameters; it misses fading within a packet and the code",
         tests=[f"{THRESHOLD}::test_closed_form_equals_the_integral",
                f"{THRESHOLD}::test_closed_form_matches_monte_carlo",
                f"{THRESHOLD}::test_slow_fading_limit_is_the_level_crossing_rate"]),
    Item("§III.A ¶2", "§III.A", "statement", "Jakes' Rayleigh fading sampled once per bit, each bit in error with "
         "the probability its SNR gives, bit errors mapped to packet errors through the code",
         tests=[f"{RAYLEIGH}::envelope_level_crossings_and_fade_durations_match_formulas",
                f"{RAYLEIGH}::mean_ber_over_rayleigh_matches_closed_forms",
                f"{RAYLEIGH}::chunked_sampling_agrees_with_per_bit_sampling",
                f"{FIT_RS}::a_link_packet_is_its_coded_bits_at_the_rate"]),
    Item("§III.A ¶3", "§III.A", "statement", "the average packet error rate and P(success | previous failure), "
         "counted in the simulation, define the two-state chain",
         tests=[f"{FIT}::test_fit_fields_and_determinism", f"{FIT_RS}::ratio_estimator",
                "crates/lossy-core/tests/markov_fit.rs::the_fitted_chain_loses_packets_at_the_fits_rate"]),
    Item("§III.A ¶3 (accuracy)", "§III.A", "statement", "the chain 'may lead to some modeling errors in some cases' "
         "but approximates much better than memoryless models",
         not_covered="the chain's error against the fading channel itself is tabulated (fig2-error, fig5-error) "
                     "and the Fig. 2 and 5 claims are judged on both (the '-fading' twins), but the error is held "
                     "to no band, and no memoryless model is run beside it"),
    Item("Eq. (1)", "§III.A", "equations", "M_c = [[p, 1 − p], [1 − q, q]]; (1 − q)⁻¹ the mean burst length",
         tests=[f"{FIT}::test_loss_config_is_the_gilbert_chain", f"{FIT}::test_the_fitted_chain_runs_as_a_links_loss"]),
    Item("Table 1", "§III.A", "table", "P_E, 1 − q and (1 − q)⁻¹ of 32-byte link packets, no FEC and "
         "BCH(255,87,26), f_d = 1, 10, 100 Hz, 10, 20, 30 dB (1 − q is the burst length's inverse)",
         claims=["table1-pe", "table1-burst"]),
    Item("§III.A ¶5", "§III.A", "statement", "Markov parameters for N_L = 64, 128 B and BCH(255,131,18) were "
         "obtained the same way",
         not_covered="the paper prints none of them to compare; our fits for them drive Figs. 6–8"),
    Item("§IV ¶1", "§IV", "statement", "TCP and link parameters: N_T 512/1024 B, W_max 24, MTO 100 packets, K = 3, "
         "f_d 1/10/100 Hz, N_L 32/64/128 B, n_l 1/8/16/128", not_covered=SETTING),
    Item("§IV ¶1 (burstiness)", "§IV", "statement", "as Table 1 shows, packet errors are bursty at 1 and 10 Hz and "
         "less bursty at 100 Hz", claims=["table1-burst"]),
    Item("Fig. 2", "§IV", "figure", "Tahoe without a link layer against SNR, N_T 512/1024 B, f_d 1/10/100 Hz",
         claims=["correlation-helps", "short-packets", "packet-size-negligible-at-1hz", "correlation-helps-fading",
                 "short-packets-fading", "packet-size-negligible-at-1hz-fading"]),
    Item("§IV on Fig. 2 (why)", "§IV", "statement", "at 100 Hz there are more 'error events' for a given error rate, "
         "so TCP shrinks its window to 1 more often",
         not_covered="an explanation; no run counts TCP's window reductions per error event"),
    Item("Fig. 3", "§IV", "figure", "Tahoe with LL ARQ (n_l = 16) against the burst length, P_E 0.001/0.01/0.1",
         claims=["worst-burst-near-20", "better-beyond-20", "burst-irrelevant-at-low-pe"]),
    Item("§IV on Fig. 3 (why)", "§IV", "statement", "bursts much shorter than n_l are repaired by ARQ, longer ones "
         "exhaust its attempts, very long ones make fewer error events at the TCP layer",
         not_covered="an explanation; the shape it explains is held by the Fig. 3 claims, the mechanism by no probe"),
    Item("Fig. 4", "§IV", "figure", "Tahoe with LL ARQ against the burst length at P_E = 0.1, n_l 1/16/128 (the "
         "caption's 'at n_l = 16' is a slip)", claims=["nl128-persists", "nl1-very-poor"]),
    Item("Fig. 5", "§IV", "figure", "Tahoe with and without LL ARQ against SNR at 10 Hz, n_l 1/8/16/128",
         claims=["nl16-needed", "more-attempts-better", "nl128-at-10db", "nl16-far-below-0.1-at-10db",
                 "nl16-needed-fading", "more-attempts-better-fading", "nl128-at-10db-fading",
                 "nl16-far-below-0.1-at-10db-fading"]),
    Item("§IV on Fig. 5 (why)", "§IV", "statement", "with n_l = 1 TCP sends on as soon as the link layer gives up, "
         "exhausting its window: many fast retransmits and timeouts",
         not_covered="an explanation; no run counts the fast retransmits and timeouts behind it"),
    Item("Fig. 6", "§IV", "figure", "link packet size N_L 32/64/128 B with n_l 16/128 against SNR at 10 Hz",
         claims=["bigger-ll-packets", "ll-size-little-difference-at-128"]),
    Item("Fig. 7", "§IV", "figure", "LL FEC/ARQ (n_l = 16) with rate-1/2 and rate-1/3 BCH against SNR, f_d 1/100 Hz",
         claims=["fec-helps", "rate-third-barely", "most-gain-from-arq"]),
    Item("§IV on Fig. 7 (energy)", "§IV", "statement", "FEC or ARQ should also be weighed by energy efficiency",
         not_covered="future work the paper names; no energy model here"),
    Item("Fig. 8", "§IV", "figure", "Tahoe and NewReno over rate-1/2 FEC/ARQ against SNR, f_d 1/100 Hz",
         claims=["tahoe-newreno"]),
    Item("Abstract; §V ¶1", "Abstract, §V", "statement", "link-layer retransmissions must outlast the bad state of "
         "the channel to beat TCP without LL ARQ",
         claims=["nl16-needed", "more-attempts-better", "nl128-persists"]),
    Item("§V ¶1 (ARQ or FEC)", "§V", "statement", "between LL ARQ and FEC, LL ARQ gave the most improvement",
         claims=["most-gain-from-arq"]),
    Item("Abstract; §IV last ¶; §V", "Abstract, §IV, §V", "statement", "with a suitable LL FEC/ARQ, Tahoe is a "
         "good choice: no compelling need for NewReno", claims=["tahoe-newreno"]),
    Item("§I ¶2", "§I", "statement", "[5]: NewReno and Vegas do not improve much on Tahoe on slowly fading, low "
         "bandwidth-delay links", not_covered="a result of the cited [5], not of this paper"),
])

__all__ = ["INVENTORY"]
