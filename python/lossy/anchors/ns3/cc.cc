// TCP bulk transfers (one, or --flows of them) in ns-3 3.44 over a chain of point-to-point links, with a chosen
// congestion control: the ns-3 side of lossy's congestion-control comparisons
// (python/lossy/ns3cc/, `lossy ns3`; python/lossy/anchors/ns3/README.md lists the
// set-ups and why each attribute is set).
//
//   n0 --[link 0]--> n1 --[link 1]--> ... --[link L-1, loss p on data]--> nL
//
// --links lists the links, sender first, as "RATE,DELAY,QUEUE" separated by ';', e.g.
// "1Gbps,5ms,100p;10Mbps,10ms,100p;1Gbps,5ms,100p" (tcp-bbr-example.cc's dumbbell).
// QUEUE is "Np" (a DropTail device queue of N packets, no queue disc above it, as on
// lossy's links), or a queue disc above a 1-packet device queue: "codel" (ns-3's
// CoDelQueueDisc with its defaults), "fq_codel" (FqCoDelQueueDisc) or "pie"
// (PieQueueDisc), the last two with lossy's defaults (AqmDefaults). Last stdout line: one JSON object; --trace=FILE writes "t cwnd BYTES",
// "t pacing BPS" and "t state NAME" lines. `cc --PrintHelp` lists every option.

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include "counters.h"
#include "queue_delay.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

struct LinkSpec
{
    std::string rate;
    std::string delay;
    std::string queue; // "100p", "codel", "fq_codel" or "pie"
};

// The queue discs QUEUE may name (ns-3 TypeIds); anything else is a DropTail device queue.
const char*
QueueDiscTypeId(const std::string& queue)
{
    return queue == "codel"      ? "ns3::CoDelQueueDisc"
           : queue == "fq_codel" ? "ns3::FqCoDelQueueDisc"
           : queue == "pie"      ? "ns3::PieQueueDisc"
                                 : nullptr;
}

// FQ-CoDel's and PIE's attributes set to lossy's defaults (fq_codel.rs, pie_config.rs),
// each named even where ns-3's default is the same; set before the command line is
// parsed, so that --ns3::PieQueueDisc::MaxBurstAllowance=0ms and the like override them.
// FQ-CoDel's quantum has no attribute: lossy's 1514 B is set on the disc (ns-3 would
// take the device's MTU, 1500 B). docs/guide/anchors.md says where ns-3's rules differ.
void
AqmDefaults()
{
    Config::SetDefault("ns3::FqCoDelQueueDisc::MaxSize", QueueSizeValue(QueueSize("10240p")));
    Config::SetDefault("ns3::FqCoDelQueueDisc::Flows", UintegerValue(1024));
    Config::SetDefault("ns3::FqCoDelQueueDisc::Target", StringValue("5ms"));
    Config::SetDefault("ns3::FqCoDelQueueDisc::Interval", StringValue("100ms"));
    Config::SetDefault("ns3::FqCoDelQueueDisc::UseEcn", BooleanValue(true));
    Config::SetDefault("ns3::FqCoDelQueueDisc::DropBatchSize", UintegerValue(64));
    Config::SetDefault("ns3::FqCoDelQueueDisc::EnableSetAssociativeHash", BooleanValue(false));
    Config::SetDefault("ns3::PieQueueDisc::MaxSize", QueueSizeValue(QueueSize("1000p")));
    Config::SetDefault("ns3::PieQueueDisc::QueueDelayReference", TimeValue(MilliSeconds(15)));
    Config::SetDefault("ns3::PieQueueDisc::Tupdate", TimeValue(MilliSeconds(15)));
    Config::SetDefault("ns3::PieQueueDisc::A", DoubleValue(0.125));
    Config::SetDefault("ns3::PieQueueDisc::B", DoubleValue(1.25));
    Config::SetDefault("ns3::PieQueueDisc::MaxBurstAllowance", TimeValue(MilliSeconds(150)));
    Config::SetDefault("ns3::PieQueueDisc::UseDequeueRateEstimator", BooleanValue(false));
    Config::SetDefault("ns3::PieQueueDisc::UseCapDropAdjustment", BooleanValue(true));
    Config::SetDefault("ns3::PieQueueDisc::UseDerandomization", BooleanValue(false));
    Config::SetDefault("ns3::PieQueueDisc::UseEcn", BooleanValue(false));
    Config::SetDefault("ns3::PieQueueDisc::ActiveThreshold", TimeValue(Time::Max()));
    Config::SetDefault("ns3::PieQueueDisc::MeanPktSize", UintegerValue(1000));
}

const uint32_t FQ_CODEL_QUANTUM = 1514; // bytes, lossy's fq_codel quantum

std::vector<LinkSpec>
ParseLinks(const std::string& text)
{
    std::vector<LinkSpec> links;
    std::stringstream all(text);
    std::string one;
    while (std::getline(all, one, ';'))
    {
        std::replace(one.begin(), one.end(), ',', ' ');
        std::stringstream fields(one);
        LinkSpec link;
        if (!(fields >> link.rate >> link.delay >> link.queue))
        {
            NS_FATAL_ERROR("--links: \"" << one << "\" is not \"RATE,DELAY,QUEUE\"");
        }
        links.push_back(link);
    }
    if (links.empty())
    {
        NS_FATAL_ERROR("--links: no link");
    }
    return links;
}

// ns-3's NewReno with RFC 5681's halving of FlightSize (eq. (4); RFC 6675 §5 step 4.2:
// "ssthresh = cwnd = (FlightSize / 2)"), the rule lossy runs, for the probe of the
// lossy-path NewReno row (--ssthresh-of). ns-3 itself halves the pipe it passes to
// GetSsThresh (tcp-socket-base.cc EnterRecovery and ReTxTimeout: BytesInFlight(), which
// leaves out SACKed and lost segments); FlightSize is SND.MAX - SND.UNA as lossy's
// SenderState::flight_size, here m_highTxMark - m_lastAckedSeq (ProcessAck sets the
// latter first). `atRecoveryOnly`: FlightSize on entering recovery only (EnterRecovery
// calls CongestionStateSet(CA_RECOVERY) just before GetSsThresh), ns-3's pipe at a timeout.
// `lessLimitedTransmit`: lossy's FlightSize exactly (SenderState::reduction_flight and
// Aimd::timeout_ssthresh): without the data limited transmit sent on the duplicate ACKs
// (RFC 5681 3.2 step 2: it "MUST NOT be included"), i.e. SND.MAX as it was at the first
// duplicate ACK (CA_DISORDER); at a timeout in recovery, no more than FlightSize at entry.
class TcpNewRenoFlightSize : public TcpNewReno
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("lossy::TcpNewRenoFlightSize")
                                .SetParent<TcpNewReno>()
                                .SetGroupName("Internet")
                                .AddConstructor<TcpNewRenoFlightSize>()
                                .AddAttribute("AtRecoveryOnly",
                                              "FlightSize on entering recovery only; the pipe at a timeout",
                                              BooleanValue(false),
                                              MakeBooleanAccessor(&TcpNewRenoFlightSize::m_atRecoveryOnly),
                                              MakeBooleanChecker())
                                .AddAttribute("LessLimitedTransmit",
                                              "FlightSize without limited transmit's data (RFC 5681 3.2 step 2)",
                                              BooleanValue(false),
                                              MakeBooleanAccessor(&TcpNewRenoFlightSize::m_lessLimitedTransmit),
                                              MakeBooleanChecker());
        return tid;
    }

    std::string GetName() const override
    {
        return "TcpNewRenoFlightSize";
    }

    void CongestionStateSet(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCongState_t state) override
    {
        m_entering = state == TcpSocketState::CA_RECOVERY;
        if (state == TcpSocketState::CA_DISORDER)
        {
            m_highAtDisorder = tcb->m_highTxMark; // before limited transmit sends anything
        }
        TcpNewReno::CongestionStateSet(tcb, state);
    }

    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override
    {
        const bool flightSize = m_entering || !m_atRecoveryOnly;
        const bool entering = m_entering;
        m_entering = false;
        uint32_t flight = uint32_t(tcb->m_highTxMark.Get() - tcb->m_lastAckedSeq);
        if (m_lessLimitedTransmit)
        {
            // Entering recovery, or a timeout in CA_DISORDER: SND.MAX at the first
            // duplicate ACK (ReTxTimeout calls GetSsThresh before CA_LOSS is set).
            const TcpSocketState::TcpCongState_t state = tcb->m_congState;
            if (entering || state == TcpSocketState::CA_DISORDER)
            {
                const SequenceNumber32 high = std::min(tcb->m_highTxMark.Get(), m_highAtDisorder);
                // (lossy forgets limited transmit's count on an ACK that advances SND.UNA.)
                flight = high > tcb->m_lastAckedSeq ? uint32_t(high - tcb->m_lastAckedSeq) : flight;
            }
            if (entering)
            {
                m_recoveryFlight = flight;
            }
            else if (state == TcpSocketState::CA_RECOVERY)
            {
                flight = std::min(flight, m_recoveryFlight);
            }
        }
        return std::max(2 * tcb->m_segmentSize, (flightSize ? flight : bytesInFlight) / 2);
    }

    Ptr<TcpCongestionOps> Fork() override
    {
        return CopyObject<TcpNewRenoFlightSize>(this);
    }

  private:
    bool m_atRecoveryOnly = false;
    bool m_lessLimitedTransmit = false;
    bool m_entering = false;
    SequenceNumber32 m_highAtDisorder{0};
    uint32_t m_recoveryFlight = 0;
};

TypeId
CcTypeId(const std::string& cc, const std::string& ssthreshOf)
{
    const bool known = ssthreshOf == "flightsize" || ssthreshOf == "flightsize-at-recovery" ||
                       ssthreshOf == "flightsize-less-lt";
    if (ssthreshOf != "pipe" && (cc != "NewReno" || !known))
    {
        NS_FATAL_ERROR("--ssthresh-of=" << ssthreshOf << ": expected pipe (ns-3's rule), or flightsize, "
                                          "flightsize-at-recovery or flightsize-less-lt with --cc=NewReno");
    }
    if (ssthreshOf != "pipe")
    {
        const TypeId tid = TcpNewRenoFlightSize::GetTypeId(); // registered before its default is set
        Config::SetDefault("lossy::TcpNewRenoFlightSize::AtRecoveryOnly",
                           BooleanValue(ssthreshOf == "flightsize-at-recovery"));
        Config::SetDefault("lossy::TcpNewRenoFlightSize::LessLimitedTransmit",
                           BooleanValue(ssthreshOf == "flightsize-less-lt"));
        return tid;
    }
    if (cc == "NewReno")
    {
        return TcpNewReno::GetTypeId();
    }
    if (cc == "Cubic")
    {
        return TcpCubic::GetTypeId();
    }
    if (cc == "Bbr")
    {
        return TcpBbr::GetTypeId();
    }
    if (cc == "Vegas")
    {
        return TcpVegas::GetTypeId();
    }
    if (cc == "WestwoodPlus")
    {
        return TcpWestwoodPlus::GetTypeId();
    }
    NS_FATAL_ERROR("--cc=" << cc << ": expected NewReno, Cubic, Bbr, Vegas or WestwoodPlus");
}

// The window over time: its time-weighted mean, its peak and when, and BBR's ProbeRTT
// entries (the window falling to 4 segments, tcp-bbr.cc's m_minPipeCwnd, from above).
struct CwndStats
{
    uint32_t mss = 0;
    bool bbr = false;
    double lastT = 0.0;
    uint32_t last = 0;
    double area = 0.0; // bytes x seconds
    uint32_t peak = 0;
    double peakT = 0.0;
    std::vector<double> probeRtt;

    void Change(uint32_t, uint32_t now)
    {
        const double t = Simulator::Now().GetSeconds();
        area += double(last) * (t - lastT);
        // One entry per episode: the window bounces at 4 segments while ProbeRTT lasts
        // (200 ms and a round trip), so a fall within a second of the last is the same one.
        if (bbr && now == 4 * mss && last > 4 * mss && (probeRtt.empty() || t - probeRtt.back() > 1.0))
        {
            probeRtt.push_back(t);
        }
        if (now > peak)
        {
            peak = now;
            peakT = t;
        }
        last = now;
        lastT = t;
    }

    double MeanSegments(double end) const
    {
        const double total = area + double(last) * (end - lastT);
        return end > 0 ? total / end / mss : 0.0;
    }
};

} // namespace

int
main(int argc, char* argv[])
{
    std::string cc = "NewReno";
    std::string linksText = "10Mbps,10ms,100p;2Mbps,5ms,100p";
    double p = 0.0;
    double simS = 100.0;
    uint32_t seed = 1;
    uint32_t mss = 1000;
    uint32_t delAck = 1;
    uint32_t buffer = 16 << 20;
    uint32_t initialCwnd = 10;
    bool sack = true;
    bool cubicRenoFriendly = true;
    std::string traceFile;
    std::string ssthreshOf = "pipe";
    uint32_t nFlows = 1;
    double startGap = 0.0;

    CommandLine cmd(__FILE__);
    cmd.AddValue("cc", "congestion control: NewReno, Cubic, Bbr, Vegas or WestwoodPlus", cc);
    cmd.AddValue("links",
                 "the links, sender first: \"RATE,DELAY,QUEUE;...\" (QUEUE: Np, codel, fq_codel or pie)",
                 linksText);
    cmd.AddValue("p", "data packet loss on the last link", p);
    cmd.AddValue("sim-time", "simulated seconds", simS);
    cmd.AddValue("seed", "run number of ns-3's random streams", seed);
    cmd.AddValue("mss", "segment size, bytes", mss);
    cmd.AddValue("delack", "segments per ACK (DelAckCount; the timeout stays 200 ms)", delAck);
    cmd.AddValue("buffer", "send and receive socket buffers, bytes", buffer);
    cmd.AddValue("iw", "initial window, segments", initialCwnd);
    cmd.AddValue("sack", "SACK (RFC 2018) on both ends", sack);
    cmd.AddValue("cubic-reno-friendly", "TcpCubic's TcpFriendliness (RFC 9438 4.3)", cubicRenoFriendly);
    cmd.AddValue("ssthresh-of",
                 "what a loss halves: pipe (ns-3's BytesInFlight), flightsize (RFC 5681 eq. 4), flightsize-at-recovery "
                 "(FlightSize entering recovery, the pipe at a timeout) or flightsize-less-lt (lossy's: FlightSize "
                 "without limited transmit's data, RFC 5681 3.2 step 2); all but pipe NewReno only",
                 ssthreshOf);
    cmd.AddValue("flows", "bulk flows from the first node to the last, each its own port", nFlows);
    cmd.AddValue("start-gap", "flow i starts at i x this many seconds", startGap);
    cmd.AddValue("trace", "write cwnd, pacing-rate and state changes to this file", traceFile);
    AqmDefaults();
    cmd.Parse(argc, argv);
    const std::vector<LinkSpec> links = ParseLinks(linksText);

    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);

    // The sender's TCP (python/lossy/anchors/ns3/README.md says why each is set).
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(CcTypeId(cc, ssthreshOf)));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                       TypeIdValue(TcpClassicRecovery::GetTypeId()));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(mss));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(delAck));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(initialCwnd));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(buffer));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(buffer));
    Config::SetDefault("ns3::TcpCubic::TcpFriendliness", BooleanValue(cubicRenoFriendly));
    // BBR paces (tcp-bbr.cc turns pacing on itself, with a warning); the others do not.
    Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(cc == "Bbr"));

    NodeContainer nodes;
    nodes.Create(links.size() + 1);
    std::vector<NetDeviceContainer> devices;
    for (size_t i = 0; i < links.size(); ++i)
    {
        PointToPointHelper helper;
        helper.SetDeviceAttribute("DataRate", StringValue(links[i].rate));
        helper.SetChannelAttribute("Delay", StringValue(links[i].delay));
        const bool disc = QueueDiscTypeId(links[i].queue) != nullptr;
        helper.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue(disc ? "1p" : links[i].queue));
        devices.push_back(helper.Install(nodes.Get(i), nodes.Get(i + 1)));
    }
    InternetStackHelper internet;
    internet.Install(nodes);
    Ipv4AddressHelper addresses;
    Ipv4InterfaceContainer last;
    for (size_t i = 0; i < links.size(); ++i)
    {
        addresses.SetBase(("10.0." + std::to_string(i + 1) + ".0").c_str(), "255.255.255.0");
        last = addresses.Assign(devices[i]);
    }
    // No queue disc but the one asked for: a DropTail device queue alone is lossy's queue.
    TrafficControlHelper none;
    int bottleneck = -1;
    for (size_t i = 0; i < links.size(); ++i)
    {
        none.Uninstall(devices[i]);
        if (const char* type = QueueDiscTypeId(links[i].queue))
        {
            TrafficControlHelper aqm;
            aqm.SetRootQueueDisc(type);
            QueueDiscContainer installed = aqm.Install(devices[i].Get(0));
            if (Ptr<FqCoDelQueueDisc> fq = DynamicCast<FqCoDelQueueDisc>(installed.Get(0)))
            {
                fq->SetQuantum(FQ_CODEL_QUANTUM);
            }
        }
        if (bottleneck < 0 ||
            DataRate(links[i].rate) < DataRate(links[size_t(bottleneck)].rate))
        {
            bottleneck = int(i);
        }
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    // Loss on the last link's receiving device: only the data direction crosses it.
    Ptr<NetDevice> lossy = devices.back().Get(1);
    Ptr<RateErrorModel> loss = CreateObject<RateErrorModel>();
    loss->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
    loss->SetRate(p);
    lossy->SetAttribute("ReceiveErrorModel", PointerValue(loss));

    lossy_ns3::LinkCounters linkCounters;
    std::vector<Ptr<NetDevice>> all;
    for (auto& d : devices)
    {
        all.push_back(d.Get(0));
        all.push_back(d.Get(1));
    }
    linkCounters.Connect(lossy, all, nodes);
    lossy_ns3::SenderCounters sender;
    // The bottleneck's queue: its queue disc's where it has one, else its device queue.
    Ptr<NetDevice> narrow = devices[size_t(bottleneck)].Get(0);
    Ptr<QueueDisc> disc = narrow->GetNode()->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(narrow);
    Ptr<Queue<Packet>> deviceQueue = DynamicCast<PointToPointNetDevice>(narrow)->GetQueue();
    sender.queueLength = [disc, deviceQueue]() {
        return disc ? disc->GetNPackets() : deviceQueue->GetNPackets();
    };
    lossy_ns3::QueueDelay queueDelay;
    queueDelay.Connect(disc, DynamicCast<PointToPointNetDevice>(narrow));
    if (!traceFile.empty())
    {
        sender.trace = std::fopen(traceFile.c_str(), "w");
    }
    CwndStats cwnd;
    cwnd.mss = mss;
    cwnd.bbr = cc == "Bbr";

    // nFlows bulk transfers on ports 5000, 5001, ...; flow i starts at i x startGap
    // (FQ-CoDel hashes each 5-tuple to its own flow queue). The counters, the cwnd
    // statistics and the trace are flow 0's.
    std::vector<Ptr<PacketSink>> sinks;
    std::vector<double> starts;
    Ptr<BulkSendApplication> app;
    for (uint32_t f = 0; f < nFlows; ++f)
    {
        const uint16_t port = uint16_t(5000 + f);
        const double start = f * startGap;
        BulkSendHelper source("ns3::TcpSocketFactory", InetSocketAddress(last.GetAddress(1), port));
        source.SetAttribute("MaxBytes", UintegerValue(0));
        source.SetAttribute("SendSize", UintegerValue(mss));
        ApplicationContainer sourceApp = source.Install(nodes.Get(0));
        sourceApp.Start(Seconds(start));
        sourceApp.Stop(Seconds(simS));
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sinkApp = sinkHelper.Install(nodes.Get(links.size()));
        sinkApp.Start(Seconds(0));
        sinkApp.Stop(Seconds(simS));
        sinks.push_back(DynamicCast<PacketSink>(sinkApp.Get(0)));
        starts.push_back(start);
        if (f == 0)
        {
            app = DynamicCast<BulkSendApplication>(sourceApp.Get(0));
        }
    }
    // The sender's socket exists once its application has started: hook it 1 ns later.
    Simulator::Schedule(NanoSeconds(1), [app, &sender, &cwnd]() {
        sender.Connect(app->GetSocket());
        app->GetSocket()->TraceConnectWithoutContext("CongestionWindow",
                                                     MakeCallback(&CwndStats::Change, &cwnd));
    });

    Simulator::Stop(Seconds(simS));
    Simulator::Run();

    // Each flow's goodput over its own life (lossy's run.rs: delivered bytes x 8 / (end -
    // start)); goodput_bps is flow 0's with one flow, else every flow's bytes over the run.
    uint64_t received = 0;
    std::string flowGoodputs;
    for (size_t f = 0; f < sinks.size(); ++f)
    {
        received += sinks[f]->GetTotalRx();
        char one[32];
        std::snprintf(one, sizeof one, "%s%.6f", f ? ", " : "", 8.0 * sinks[f]->GetTotalRx() / (simS - starts[f]));
        flowGoodputs += one;
    }
    const unsigned long long events = Simulator::GetEventCount();
    const unsigned long long aqmDrops = disc ? disc->GetStats().nTotalDroppedPackets : 0;
    // The bottleneck queue as lossy's link rows give it (queue_delay.h), and FQ-CoDel's
    // flow queues in use (two flows hashed to one queue would share it).
    char queueJson[256];
    std::snprintf(queueJson, sizeof queueJson,
                  "\"sojourn_p50_ms\": %.6f, \"sojourn_p95_ms\": %.6f, \"sojourn_p99_ms\": %.6f, "
                  "\"sojourn_mean_ms\": %.6f, \"queue_mean_pkts\": %.6f, \"aqm_classes\": %zu",
                  queueDelay.QuantileMs(0.5), queueDelay.QuantileMs(0.95), queueDelay.QuantileMs(0.99),
                  queueDelay.MeanMs(), queueDelay.MeanPackets(simS),
                  disc ? disc->GetNQueueDiscClasses() : size_t(0));
    Simulator::Destroy();
    if (sender.trace)
    {
        std::fclose(sender.trace);
    }
    uint64_t tcDrops = 0;
    for (uint64_t d : linkCounters.tcDrops)
    {
        tcDrops += d;
    }
    std::string probes;
    for (double t : cwnd.probeRtt)
    {
        probes += (probes.empty() ? "" : ", ") + std::to_string(t);
    }
    std::printf("{\"simulator\": \"ns-3\", \"cc\": \"%s\", \"links\": \"%s\", \"p\": %.9g, "
                "\"seed\": %u, \"sim_time_s\": %.9g, \"mss\": %u, \"delack\": %u, "
                "\"buffer\": %u, \"sack\": %s, \"rx_bytes\": %llu, \"goodput_bps\": %.6f, "
                "\"err_drops\": %llu, \"queue_drops\": %llu, \"tc_drops\": %llu, \"aqm_drops\": %llu, "
                "\"retrans\": %llu, \"recoveries\": %llu, \"rtos\": %llu, "
                "\"rtt_mean_s\": %.6f, \"rtt_min_s\": %.6f, \"bottleneck_queue_mean_pkts\": %.3f, "
                "\"cwnd_mean_segs\": %.3f, \"cwnd_peak_segs\": %.3f, \"cwnd_peak_t_s\": %.6f, "
                "\"probe_rtt_t_s\": [%s], %s, \"flow_goodputs_bps\": [%s], \"events\": %llu}\n",
                cc.c_str(), linksText.c_str(), p, seed, simS, mss, delAck, buffer,
                sack ? "true" : "false", (unsigned long long)received, 8.0 * received / simS,
                (unsigned long long)linkCounters.errDrops,
                (unsigned long long)linkCounters.queueDrops, (unsigned long long)tcDrops, aqmDrops,
                (unsigned long long)sender.retrans, (unsigned long long)sender.recoveries,
                (unsigned long long)sender.rtos, sender.MeanRtt(), sender.rttMin,
                sender.ackSamples ? sender.queueSum / sender.ackSamples : 0.0,
                cwnd.MeanSegments(simS), double(cwnd.peak) / mss, cwnd.peakT, probes.c_str(),
                queueJson, flowGoodputs.c_str(), events);
    return 0;
}
