// One TCP bulk transfer in htsim over the path of lossy's scenarios/ns3-compare.toml:
//
//   S --[wired: 10 Mbps, 10 ms]--> BS --[last hop: 2 Mbps, 5 ms, loss p on data]--> R
//
// Written for lossy's `lossy bench` (python/lossy/anchors/htsim/README.md says what differs from
// lossy's path and why). It uses htsim's own TcpSrc/TcpSink, Queue, Pipe and EventList
// unchanged (Broadcom/csg-htsim, the commit pinned in python/lossy/bench_anchors.py);
// the two stages below are ours: htsim has no random-loss element, and its ACK size is
// a constant 40 B where the path's pure ACK is 42 B on the wire.
//
// Last stdout line: one JSON object (sim_time_s, delivered_packets, events, loop_cpu_s,
// loop_wall_s, peak_rss_bytes, goodput_bps, ...). `bulk --help` lists the options.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <random>
#include <string>

#include "eventlist.h"
#include "network.h"
#include "pipe.h"
#include "queue.h"
#include "tcp.h"

namespace {

// Drops a data packet with probability p from its own seeded generator, on the last hop
// only (like ns-3's RateErrorModel on the receiver's device); ACKs pass. The SYN passes
// too: a lost SYN would cost htsim's 3 s initial RTO and lossy's path has no handshake.
class BernoulliDataLoss : public PacketSink {
public:
    BernoulliDataLoss(double p, uint64_t seed) : _p(p), _rng(seed), _uniform(0.0, 1.0) {}
    void receivePacket(Packet& pkt) override {
        if (pkt.type() == TCP && pkt.size() > 1 && _uniform(_rng) < _p) {
            ++_dropped;
            pkt.free();
            return;
        }
        pkt.sendOn();
    }
    const string& nodename() override { return _name; }
    uint64_t dropped() const { return _dropped; }

private:
    double _p;
    std::mt19937_64 _rng;
    std::uniform_real_distribution<double> _uniform;
    uint64_t _dropped = 0;
    string _name = "bernoulli-data-loss";
};

// Gives each ACK the path's wire size (20 TCP + 20 IPv4 + 2 PPP = 42 B) before it
// reaches the first queue; htsim's TcpAck::ACKSIZE is 40.
class AckWireSize : public PacketSink {
public:
    explicit AckWireSize(int bytes) : _bytes(bytes) {}
    void receivePacket(Packet& pkt) override {
        pkt.set_size(_bytes);
        pkt.sendOn();
    }
    const string& nodename() override { return _name; }

private:
    int _bytes;
    string _name = "ack-wire-size";
};

struct Options {
    double rate_bps = 2e6;        // last hop
    double wired_rate_bps = 10e6; // S to BS
    double p = 0.01;
    double sim_s = 100.0;
    uint64_t seed = 1;
    int queue_packets = 100;
    double rto_scan_ms = 10.0;    // htsim's examples scan RTO timers every 10 ms
};

double cpu_seconds() {
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

double wall_seconds() {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

// The process's own peak resident set (VmHWM), in bytes; -1 where /proc is absent.
long long peak_rss_bytes() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmHWM:", 0) == 0) return std::atoll(line.c_str() + 6) * 1024;
    }
    return -1;
}

const char* USAGE =
    "usage: bulk [--rate=BPS] [--wired-rate=BPS] [--p=P] [--sim-time=S] [--seed=N]\n"
    "            [--queue=PACKETS] [--rto-scan-ms=MS] [--sack=0]\n"
    "  --rate        last hop BS->R in bit/s (2e6)      --wired-rate  S->BS in bit/s (10e6)\n"
    "  --p           data packet loss on the last hop (0.01)\n"
    "  --sim-time    simulated seconds (100)            --seed        loss generator seed (1)\n"
    "  --queue       DropTail queue per device, in data packets (100)\n"
    "  --rto-scan-ms htsim's RTO timer scan period (10)\n"
    "  --sack        only 0: htsim's TCP has no SACK\n";

bool parse(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        const char* eq = std::strchr(a, '=');
        if (!std::strcmp(a, "--help")) { std::fputs(USAGE, stdout); std::exit(0); }
        if (!eq) { std::fprintf(stderr, "bulk: %s: expected --name=value\n", a); return false; }
        std::string name(a, eq - a);
        const char* v = eq + 1;
        char* end = nullptr;
        double x = std::strtod(v, &end);
        if (end == v || *end != '\0') { std::fprintf(stderr, "bulk: %s: not a number\n", a); return false; }
        if (name == "--rate") o.rate_bps = x;
        else if (name == "--wired-rate") o.wired_rate_bps = x;
        else if (name == "--p") o.p = x;
        else if (name == "--sim-time") o.sim_s = x;
        else if (name == "--seed") o.seed = (uint64_t)x;
        else if (name == "--queue") o.queue_packets = (int)x;
        else if (name == "--rto-scan-ms") o.rto_scan_ms = x;
        else if (name == "--sack") {
            if (x != 0) { std::fprintf(stderr, "bulk: htsim's TCP has no SACK (--sack=0 only)\n"); return false; }
        } else { std::fprintf(stderr, "bulk: unknown option %s (see --help)\n", name.c_str()); return false; }
    }
    if (o.rate_bps <= 0 || o.wired_rate_bps <= 0 || o.sim_s <= 0 || o.p < 0 || o.p > 1 || o.queue_packets < 1) {
        std::fprintf(stderr, "bulk: rates and --sim-time must be > 0, --p in [0, 1], --queue >= 1\n");
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    if (!parse(argc, argv, o)) return 2;

    const int mss = 1000;
    const int data_wire = mss + 20 + 20 + 2;  // TCP, IPv4 and PPP headers, no options
    const int ack_wire = 20 + 20 + 2;
    // htsim's TCP numbers its bytes by the packet's size on the wire: a 1042-byte segment
    // serialises like the path's data packet and carries 1000 bytes of payload here.
    Packet::set_packet_size(data_wire);

    EventList eventlist;
    eventlist.setEndtime(timeFromSec(o.sim_s));
    const mem_b queue_bytes = (mem_b)o.queue_packets * data_wire;

    // Forward: S's device queue and wire, BS's device queue, the loss on R's side, the wire.
    Queue q_s(linkspeed_bps(o.wired_rate_bps), queue_bytes, eventlist, nullptr);
    Pipe wire_s(timeFromMs(10.0), eventlist);
    Queue q_bs(linkspeed_bps(o.rate_bps), queue_bytes, eventlist, nullptr);
    Pipe wire_bs(timeFromMs(5.0), eventlist);
    BernoulliDataLoss loss(o.p, o.seed);
    // Back: R's and BS's device queues, the same rates and delays.
    AckWireSize ack_size(ack_wire);
    Queue q_r(linkspeed_bps(o.rate_bps), queue_bytes, eventlist, nullptr);
    Pipe wire_r(timeFromMs(5.0), eventlist);
    Queue q_bs_back(linkspeed_bps(o.wired_rate_bps), queue_bytes, eventlist, nullptr);
    Pipe wire_bs_back(timeFromMs(10.0), eventlist);

    TcpSrc src(nullptr, nullptr, eventlist);
    TcpSink sink;
    TcpRtxTimerScanner scanner(timeFromMs(o.rto_scan_ms), eventlist);
    scanner.registerTcp(src);

    Route out, back;
    out.push_back(&q_s); out.push_back(&wire_s); out.push_back(&q_bs); out.push_back(&loss);
    out.push_back(&wire_bs); out.push_back(&sink);
    back.push_back(&ack_size); back.push_back(&q_r); back.push_back(&wire_r);
    back.push_back(&q_bs_back); back.push_back(&wire_bs_back); back.push_back(&src);
    src.connect(out, back, sink, 0);

    uint64_t events = 0;
    const double cpu0 = cpu_seconds(), wall0 = wall_seconds();
    while (eventlist.doNextEvent()) ++events;
    const double loop_cpu = cpu_seconds() - cpu0, loop_wall = wall_seconds() - wall0;

    // In-order data at the sink: its cumulative ACK counts the SYN's one byte first.
    const uint64_t acked = sink._cumulative_ack > 0 ? sink._cumulative_ack - 1 : 0;
    const uint64_t delivered = acked / data_wire;
    std::printf(
        "{\"simulator\": \"htsim\", \"sim_time_s\": %.9g, \"delivered_packets\": %llu, \"events\": %llu, "
        "\"loop_cpu_s\": %.6f, \"loop_wall_s\": %.6f, \"peak_rss_bytes\": %lld, \"goodput_bps\": %.6f, "
        "\"data_dropped_by_loss\": %llu, \"dropped_at_bs_queue\": %d, \"rate_bps\": %.9g, "
        "\"wired_rate_bps\": %.9g, \"p\": %.9g, \"seed\": %llu}\n",
        o.sim_s, (unsigned long long)delivered, (unsigned long long)events, loop_cpu, loop_wall,
        peak_rss_bytes(), 8.0 * mss * delivered / o.sim_s, (unsigned long long)loss.dropped(),
        q_bs.num_drops(), o.rate_bps, o.wired_rate_bps, o.p, (unsigned long long)o.seed);
    return 0;
}
