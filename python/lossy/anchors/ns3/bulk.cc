// One TCP bulk transfer in ns-3 3.44 over the path of lossy's scenarios/ns3-compare.toml:
//
//   S --[wired: 10 Mbps, 10 ms]--> BS --[last hop: 2 Mbps, 5 ms, loss p on data]--> R
//
// Written for lossy's `lossy bench` (python/lossy/anchors/ns3/README.md lists its settings and
// what differs from lossy's path). Last stdout line: one JSON object (sim_time_s,
// delivered_packets, events, loop_cpu_s, loop_wall_s, peak_rss_bytes, goodput_bps, ...).
// Options: --rate, --wired-rate (bit/s), --p, --sim-time (s), --sack (0/1), --seed,
// --buffer (bytes), --counters (0/1: add the counters of counters.h, which the validation's
// SACK reference numbers keep); `bulk --PrintHelp` lists them all.

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include "counters.h"

#include <cstdio>
#include <ctime>
#include <fstream>
#include <string>

using namespace ns3;

namespace
{

double
Clock(clockid_t which)
{
    timespec t;
    clock_gettime(which, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

// The process's own peak resident set (VmHWM), in bytes; -1 where /proc is absent.
long long
PeakRssBytes()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
    {
        if (line.rfind("VmHWM:", 0) == 0)
        {
            return std::atoll(line.c_str() + 6) * 1024;
        }
    }
    return -1;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint64_t rateBps = 2000000;
    uint64_t wiredRateBps = 10000000;
    double p = 0.01;
    double simS = 100.0;
    bool sack = false;
    uint32_t seed = 1;
    uint32_t queuePackets = 100;
    const uint32_t mss = 1000;
    uint32_t buffer = 16 << 20; // 16 MiB: the window is limited by losses alone
    bool counters = false;

    CommandLine cmd(__FILE__);
    cmd.AddValue("rate", "last hop BS->R, bit/s", rateBps);
    cmd.AddValue("wired-rate", "S->BS, bit/s", wiredRateBps);
    cmd.AddValue("p", "data packet loss on the last hop", p);
    cmd.AddValue("sim-time", "simulated seconds", simS);
    cmd.AddValue("sack", "SACK (RFC 2018) on both ends", sack);
    cmd.AddValue("seed", "run number of ns-3's random streams", seed);
    cmd.AddValue("queue", "DropTail queue per device, packets", queuePackets);
    cmd.AddValue("buffer", "send and receive socket buffers, bytes", buffer);
    cmd.AddValue("counters", "count drops, retransmissions, recoveries, timeouts, RTT", counters);
    cmd.Parse(argc, argv);

    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);

    // NewReno with RFC 6582 recovery (ns-3's default is PRR), an ACK per segment, no
    // timestamps (data 1000 + 20 + 20 + 2 PPP = 1042 B on the wire, ACK 42 B).
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpNewReno::GetTypeId()));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                       TypeIdValue(TcpClassicRecovery::GetTypeId()));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(mss));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(buffer));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(buffer));
    // IW 10, min RTO 1 s, 1 ms clock granularity and limited transmit are ns-3's defaults.

    NodeContainer nodes;
    nodes.Create(3); // S, BS, R
    const std::string queue = std::to_string(queuePackets) + "p";
    PointToPointHelper wired;
    wired.SetDeviceAttribute("DataRate", DataRateValue(DataRate(wiredRateBps)));
    wired.SetChannelAttribute("Delay", TimeValue(MilliSeconds(10)));
    wired.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue(queue));
    PointToPointHelper lastHop;
    lastHop.SetDeviceAttribute("DataRate", DataRateValue(DataRate(rateBps)));
    lastHop.SetChannelAttribute("Delay", TimeValue(MilliSeconds(5)));
    lastHop.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue(queue));
    NetDeviceContainer sToBs = wired.Install(nodes.Get(0), nodes.Get(1));
    NetDeviceContainer bsToR = lastHop.Install(nodes.Get(1), nodes.Get(2));

    InternetStackHelper internet;
    internet.Install(nodes);
    Ipv4AddressHelper addresses;
    addresses.SetBase("10.0.1.0", "255.255.255.0");
    addresses.Assign(sToBs);
    addresses.SetBase("10.0.2.0", "255.255.255.0");
    Ipv4InterfaceContainer lastHopIfs = addresses.Assign(bsToR);
    // The device queues alone, as on lossy's path: no queue disc above them.
    TrafficControlHelper trafficControl;
    trafficControl.Uninstall(sToBs);
    trafficControl.Uninstall(bsToR);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    // Loss on R's receiving device: only the data direction crosses it.
    Ptr<RateErrorModel> loss = CreateObject<RateErrorModel>();
    loss->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
    loss->SetRate(p);
    // Its stream is the next automatic one, as when the validation's SACK reference numbers
    // were taken (python/lossy/papers/validation/ns3_sack.csv): objects are created in the
    // same order, so a run reproduces those numbers exactly.
    bsToR.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(loss));

    lossy_ns3::LinkCounters links;
    lossy_ns3::SenderCounters sender;
    if (counters)
    {
        links.Connect(bsToR.Get(1), {sToBs.Get(0), sToBs.Get(1), bsToR.Get(0), bsToR.Get(1)}, nodes);
        Ptr<Queue<Packet>> bsQueue = DynamicCast<PointToPointNetDevice>(bsToR.Get(0))->GetQueue();
        sender.queueLength = [bsQueue]() { return bsQueue->GetNPackets(); };
    }

    const uint16_t port = 5000;
    BulkSendHelper source("ns3::TcpSocketFactory",
                          InetSocketAddress(lastHopIfs.GetAddress(1), port));
    source.SetAttribute("MaxBytes", UintegerValue(0));
    source.SetAttribute("SendSize", UintegerValue(mss));
    ApplicationContainer sourceApp = source.Install(nodes.Get(0));
    sourceApp.Start(Seconds(0));
    sourceApp.Stop(Seconds(simS));
    PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinkApp = sinkHelper.Install(nodes.Get(2));
    sinkApp.Start(Seconds(0));
    sinkApp.Stop(Seconds(simS));
    if (counters)
    {
        // The sender's socket exists once its application has started: hook it 1 ns later.
        Ptr<BulkSendApplication> app = DynamicCast<BulkSendApplication>(sourceApp.Get(0));
        Simulator::Schedule(NanoSeconds(1), [app, &sender]() { sender.Connect(app->GetSocket()); });
    }

    Simulator::Stop(Seconds(simS));
    const double cpu0 = Clock(CLOCK_PROCESS_CPUTIME_ID);
    const double wall0 = Clock(CLOCK_MONOTONIC);
    Simulator::Run();
    const double loopCpu = Clock(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
    const double loopWall = Clock(CLOCK_MONOTONIC) - wall0;

    // Bytes the sink's application received, in order: whole segments delivered.
    const uint64_t received = DynamicCast<PacketSink>(sinkApp.Get(0))->GetTotalRx();
    const uint64_t delivered = received / mss;
    const unsigned long long events = Simulator::GetEventCount();
    Simulator::Destroy();
    if (counters)
    {
        // The counters as a JSON line before the last one, under the names of ns3_sack.csv's columns.
        std::printf("{\"buffer_bytes\": %u, \"rxBytes\": %llu, \"rxDataPkts\": %llu, "
                    "\"errDrops\": %llu, \"queueDrops\": %llu, \"tcDrops_S\": %llu, "
                    "\"tcDrops_BS\": %llu, \"tcDrops_R\": %llu, \"retrans\": %llu, "
                    "\"recoveries\": %llu, \"rtos\": %llu, \"meanRtt_s\": %.6f, "
                    "\"minRtt_s\": %.6f, \"meanBsQueuePkts\": %.2f, \"maxBsQueuePkts\": %u, "
                    "\"meanCwndSegs\": %.2f, \"events\": %llu}\n",
                    buffer, (unsigned long long)received, (unsigned long long)links.rxDataPkts,
                    (unsigned long long)links.errDrops, (unsigned long long)links.queueDrops,
                    (unsigned long long)links.tcDrops[0], (unsigned long long)links.tcDrops[1],
                    (unsigned long long)links.tcDrops[2], (unsigned long long)sender.retrans,
                    (unsigned long long)sender.recoveries, (unsigned long long)sender.rtos,
                    sender.MeanRtt(), sender.rttMin,
                    sender.ackSamples ? sender.queueSum / sender.ackSamples : 0.0, sender.queueMax,
                    sender.ackSamples ? sender.cwndSum / sender.ackSamples / mss : 0.0, events);
    }
    std::printf("{\"simulator\": \"ns-3\", \"sim_time_s\": %.9g, \"delivered_packets\": %llu, "
                "\"events\": %llu, \"loop_cpu_s\": %.6f, \"loop_wall_s\": %.6f, "
                "\"peak_rss_bytes\": %lld, \"goodput_bps\": %.6f, \"sack\": %s, "
                "\"rate_bps\": %llu, \"wired_rate_bps\": %llu, \"p\": %.9g, \"seed\": %u}\n",
                simS, (unsigned long long)delivered, events, loopCpu, loopWall, PeakRssBytes(),
                8.0 * received / simS, sack ? "true" : "false", (unsigned long long)rateBps,
                (unsigned long long)wiredRateBps, p, seed);
    return 0;
}
