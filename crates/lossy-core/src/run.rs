//! One run: scenario + seed + replication → `RunResult`.

use crate::agents::{Agent, AgentSpec};
use crate::error::Result;
use crate::result::{AgentSummary, FlowSummary, RunResult, Summary};
use crate::scenario::{build_world_fitting, build_world_unfitted, parse_json, Fits, PendingFits, Scenario, Unfitted};
use crate::net::Segment;
use crate::transport::flow_columns::flow_metrics;
use crate::transport::Endpoint;
use crate::world::{Progress, World};
use crate::world_checks::check_link_rows;
use crate::aggregate::FlowAggregates;
use std::time::Instant;

/// Parses JSON text and runs it.
pub fn run_json(json: &str, seed: u64, replication: u64) -> Result<RunResult> {
    run(&parse_json(json)?, seed, replication)
}

/// `run_json`, reporting how far it has got in `progress` (see `World::run_loop_reporting`).
pub fn run_json_reporting(json: &str, seed: u64, replication: u64, progress: &Progress) -> Result<RunResult> {
    run_reporting(&parse_json(json)?, seed, replication, Some(progress))
}

pub fn run(s: &Scenario, seed: u64, replication: u64) -> Result<RunResult> {
    run_reporting(s, seed, replication, None)
}

pub fn run_reporting(s: &Scenario, seed: u64, replication: u64, progress: Option<&Progress>) -> Result<RunResult> {
    let world = build_world_fitting(s, seed, replication, Fits::Run(progress))?;
    run_world(s, world, seed, replication, progress)
}

/// A scenario checked and built, ready to run but for its Markov fits, with the warnings
/// on it (a bare number in a unit field, an agent's wireless neighbour on the wired side):
/// a caller shows them before the fits and the run, and only for a scenario that can run,
/// so a refused one gets its one error line alone.
pub struct Prepared {
    scenario: Scenario,
    world: World,
    fits: PendingFits,
    seed: u64,
    replication: u64,
    pub warnings: Vec<String>,
}

/// Parses and builds scenario `json` for (`seed`, `replication`), without running it.
pub fn prepare_json(json: &str, seed: u64, replication: u64) -> Result<Prepared> {
    let scenario = parse_json(json)?;
    let Unfitted { world, mut warnings, fits } = build_world_unfitted(&scenario, seed, replication)?;
    warnings.extend(crate::scenario::bare_number_warnings(json));
    Ok(Prepared { scenario, world, fits, seed, replication, warnings })
}

/// Fits and runs what [`prepare_json`] built, as [`run_reporting`] does.
pub fn run_prepared(p: Prepared, progress: Option<&Progress>) -> Result<RunResult> {
    let mut world = p.world;
    p.fits.run(&mut world, progress)?;
    run_world(&p.scenario, world, p.seed, p.replication, progress)
}

fn run_world(s: &Scenario, mut world: World, seed: u64, replication: u64, progress: Option<&Progress>) -> Result<RunResult> {
    let wall = Instant::now();
    let cpu = thread_cpu_s();
    let end = world.run_loop_reporting(progress);
    let wall_s = wall.elapsed().as_secs_f64();
    let cpu_s = thread_cpu_s().zip(cpu).map(|(after, before)| after - before);
    world.check_invariants()?;
    let result = summarize(s, world, seed, replication, end.as_secs_f64(), (wall_s, cpu_s));
    check_link_rows(&result.links)?;
    Ok(result)
}

/// Goodput and pooled-delay aggregates of each flow group, in the scenario's order.
fn group_aggregates(w: &World, flows: &[FlowSummary]) -> Vec<(String, FlowAggregates)> {
    let mut goodputs = vec![Vec::new(); w.group_names.len()];
    let mut delays = vec![Vec::new(); w.group_names.len()];
    for (f, fs) in w.flows.iter().zip(flows) {
        if let Some(g) = f.group {
            goodputs[g as usize].push(fs.goodput_bps);
            delays[g as usize].extend(f.owd.histogram());
        }
    }
    let stats = goodputs.iter().zip(delays).map(|(g, d)| FlowAggregates::of(g, d));
    w.group_names.iter().cloned().zip(stats).collect()
}

/// The endpoints' notes: one line per `[[flows]]` flow, and one per flow group and note
/// with the count of its flows that have it (a group may have thousands).
fn flow_notes(w: &World) -> Vec<String> {
    let mut notes = Vec::new();
    let mut sizes = vec![0usize; w.group_names.len()];
    let mut per_group: Vec<Vec<(String, usize)>> = vec![Vec::new(); w.group_names.len()];
    for (i, f) in w.flows.iter().enumerate() {
        let group = f.group.map(|g| g as usize);
        if let Some(g) = group {
            sizes[g] += 1;
        }
        for note in w.endpoints[2 * i..2 * i + 2].iter().filter_map(|e| e.ep.note()) {
            let Some(g) = group else {
                notes.push(format!("flow {}: {note}", f.name));
                continue;
            };
            match per_group[g].iter_mut().find(|(n, _)| *n == note) {
                Some((_, count)) => *count += 1,
                None => per_group[g].push((note, 1)),
            }
        }
    }
    for (g, seen) in per_group.into_iter().enumerate() {
        for (note, count) in seen {
            notes.push(format!("flow group {} ({count} of {} flows): {note}", w.group_names[g], sizes[g]));
        }
    }
    notes
}

/// CPU seconds this thread has used (POSIX `CLOCK_THREAD_CPUTIME_ID`): the event loop's
/// own cost, which other processes on a loaded machine do not inflate as they do wall time
/// (`lossy bench` reads it per delivered packet). None where the clock is missing.
#[cfg(unix)]
fn thread_cpu_s() -> Option<f64> {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes only into the timespec it is given.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    ok.then(|| t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
}

#[cfg(not(unix))]
fn thread_cpu_s() -> Option<f64> {
    None
}

/// The run's result from the world at its end: the flows' rows, the links', the
/// agents', then the summary over them; `times` = (wall seconds, CPU seconds) of the
/// event loop.
fn summarize(s: &Scenario, mut w: World, seed: u64, replication: u64, end_s: f64, times: (f64, Option<f64>)) -> RunResult {
    let flows = flow_rows(&mut w, end_s);
    let mut links = Vec::with_capacity(2 * w.segments.len());
    for slot in &w.segments {
        let first = links.len();
        slot.seg.report(end_s, &mut links);
        if w.traces.wants_sojourn() {
            for row in first..links.len() {
                w.traces.sojourns(row as u32, slot.seg.sojourn_trace(row - first));
            }
        }
    }
    let agents = agent_rows(s, &w);
    let summary = run_summary(s, &w, seed, replication, end_s, times, &flows);
    let traces = std::mem::take(&mut w.traces).finish();
    let mut captures = Vec::new();
    for slot in &mut w.segments {
        slot.seg.take_captures(&mut captures);
    }
    let notes = flow_notes(&w);
    RunResult { summary, flows, links, agents, notes, traces, captures }
}

/// A row per flow: what the world measured of it (labels, bytes delivered, goodput,
/// completion time), then what its two endpoints report into the record.
fn flow_rows(w: &mut World, end_s: f64) -> Vec<FlowSummary> {
    let end = w.now;
    let mut flows = Vec::with_capacity(w.flows.len());
    for (i, f) in w.flows.iter().enumerate() {
        let finished = f.finished_at;
        let start_s = f.start.as_secs_f64();
        let life = (finished.map_or(end_s, |t| t.as_secs_f64()) - start_s).max(0.0);
        let delivered = w.endpoints[2 * i + 1].ep.progress().delivered;
        let mut fs = FlowSummary {
            name: f.name.clone(),
            from: w.node_names[f.src as usize].clone(),
            to: w.node_names[f.dst as usize].clone(),
            transport: f.transport,
            variant: f.variant,
            app: f.app,
            group: f.group.map_or_else(String::new, |g| w.group_names[g as usize].clone()),
            goodput_bps: if life > 0.0 { delivered as f64 * 8.0 / life } else { 0.0 },
            bytes_delivered: delivered,
            metrics: flow_metrics(),
            completion_time_s: finished.map(|t| t.as_secs_f64() - start_s),
            cc: f.cc.clone(),
        };
        for e in [2 * i, 2 * i + 1] {
            w.endpoints[e].ep.report(end, &mut fs);
        }
        f.owd.report(&mut fs.metrics);
        flows.push(fs);
    }
    flows
}

fn agent_rows(s: &Scenario, w: &World) -> Vec<AgentSummary> {
    w.agents
        .iter()
        .enumerate()
        .map(|(i, a)| AgentSummary {
            name: format!("agent{i}"),
            kind: s.agents[i].kind(),
            node: w.node_names[a.node as usize].clone(),
            state_bytes_max: a.state_max,
            state_bytes_mean: if a.packets_seen > 0 { a.state_sum / a.packets_seen as f64 } else { 0.0 },
            packets_seen: a.packets_seen,
            counters: a.agent.counters().into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        })
        .collect()
}

/// The run's one-row summary: speed, the conservation counts, goodput and delay aggregates.
fn run_summary(s: &Scenario, w: &World, seed: u64, replication: u64, end_s: f64, (wall_s, cpu_s): (f64, Option<f64>), flows: &[FlowSummary]) -> Summary {
    let events = w.queue.popped();
    let tally = w.tally();
    Summary {
        scenario: s.name.clone(),
        seed,
        replication,
        sim_time_s: end_s,
        events,
        wall_s,
        cpu_s,
        events_per_s: if wall_s > 0.0 { events as f64 / wall_s } else { 0.0 },
        sim_s_per_wall_s: if wall_s > 0.0 { end_s / wall_s } else { 0.0 },
        packets_delivered: w.counters.data_delivered,
        packets_injected: w.counters.injected,
        packets_duplicated: tally.duplicated,
        packets_delivered_all: w.counters.delivered,
        packets_corrupt_delivered: w.counters.corrupt_delivered,
        drops_queue: w.counters.drops.queue,
        drops_channel: w.counters.drops.channel,
        drops_link_retry: w.counters.drops.link_retry,
        drops_link_down: w.counters.drops.link_down,
        drops_no_route: w.counters.drops.no_route,
        packets_absorbed: w.counters.absorbed,
        packets_held_at_end: tally.held,
        aggregates: FlowAggregates::of(&flows.iter().map(|f| f.goodput_bps).collect::<Vec<_>>(),
                                       w.flows.iter().filter_map(|f| f.owd.histogram())),
        groups: group_aggregates(w, flows),
    }
}
