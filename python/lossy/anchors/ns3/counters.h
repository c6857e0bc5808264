// Counters that explain a goodput: what the links dropped and what the sender's TCP did
// (retransmissions, recoveries, timeouts, Karn RTT samples, cwnd and the bottleneck queue
// seen at each ACK). Shared by bulk.cc and cc.cc; connecting them costs CPU, so both
// programs connect them only when asked (bulk.cc's --counters=1, cc.cc always).

#ifndef LOSSY_NS3_COUNTERS_H
#define LOSSY_NS3_COUNTERS_H

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <cstdio>
#include <deque>
#include <functional>
#include <unordered_set>
#include <vector>

namespace lossy_ns3
{
using namespace ns3;

struct LinkCounters
{
    uint64_t rxDataPkts = 0; // packets that survived the error model on the lossy device
    uint64_t errDrops = 0;   // packets the error model dropped (channel losses)
    uint64_t queueDrops = 0; // drops inside the DropTail device queues
    std::vector<uint64_t> tcDrops; // per node: the traffic-control layer's drops (a full
                                   // device queue with no queue disc, or the disc's own)

    // lossy: the receiving device that carries the error model; devices: every device
    // whose queue's drops count; nodes: every node, in order.
    void Connect(Ptr<NetDevice> lossy, const std::vector<Ptr<NetDevice>>& devices, NodeContainer nodes)
    {
        lossy->TraceConnectWithoutContext("MacRx", MakeCallback(&LinkCounters::MacRx, this));
        lossy->TraceConnectWithoutContext("PhyRxDrop", MakeCallback(&LinkCounters::ErrDrop, this));
        for (const auto& d : devices)
        {
            DynamicCast<PointToPointNetDevice>(d)->GetQueue()->TraceConnectWithoutContext(
                "Drop",
                MakeCallback(&LinkCounters::QueueDrop, this));
        }
        tcDrops.assign(nodes.GetN(), 0);
        for (uint32_t n = 0; n < nodes.GetN(); ++n)
        {
            nodes.Get(n)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
                "TcDrop",
                MakeBoundCallback(&LinkCounters::TcDrop, this, n));
        }
    }

    void MacRx(Ptr<const Packet>) { ++rxDataPkts; }
    void ErrDrop(Ptr<const Packet>) { ++errDrops; }
    void QueueDrop(Ptr<const Packet>) { ++queueDrops; }
    static void TcDrop(LinkCounters* self, uint32_t node, Ptr<const Packet>) { ++self->tcDrops[node]; }
};

// The sender socket's counters. Its RTT samples are taken here, Karn's way, rather than
// from ns-3's "LastRTT" trace (which fires only when the value changes, so its mean is
// biased): a sample when a cumulative ACK advances by exactly one segment that was sent
// once, from that segment's first transmission to the ACK's arrival at the sender.
struct SenderCounters
{
    uint64_t retrans = 0;    // the socket's "Retransmission" trace
    uint64_t recoveries = 0; // entries into CA_RECOVERY (fast retransmit)
    uint64_t rtos = 0;       // entries into CA_LOSS (retransmission timeout)
    uint64_t rttSamples = 0;
    double rttSum = 0.0;
    double rttMin = 0.0;
    uint32_t cwnd = 0;          // the last "CongestionWindow" value, bytes
    uint64_t ackSamples = 0;    // ACKs seen; the sums below are over them
    double queueSum = 0.0;      // packets in `queue` at each ACK
    uint32_t queueMax = 0;
    double cwndSum = 0.0;       // cwnd at each ACK, bytes
    std::function<uint32_t()> queueLength; // the bottleneck queue sampled at each ACK, if any
    std::FILE* trace = nullptr; // "t cwnd BYTES", "t pacing BPS", "t state NAME" lines

    void Connect(Ptr<Socket> s)
    {
        s->TraceConnectWithoutContext("Retransmission", MakeCallback(&SenderCounters::Retrans, this));
        s->TraceConnectWithoutContext("CongState", MakeCallback(&SenderCounters::State, this));
        s->TraceConnectWithoutContext("Tx", MakeCallback(&SenderCounters::Tx, this));
        s->TraceConnectWithoutContext("Rx", MakeCallback(&SenderCounters::Rx, this));
        s->TraceConnectWithoutContext("CongestionWindow", MakeCallback(&SenderCounters::Cwnd, this));
        if (trace)
        {
            s->TraceConnectWithoutContext("PacingRate", MakeCallback(&SenderCounters::Pacing, this));
        }
    }

    double MeanRtt() const { return rttSamples ? rttSum / rttSamples : 0.0; }

    void Retrans(Ptr<const Packet>, const TcpHeader&, const Address&, const Address&,
                 Ptr<const TcpSocketBase>)
    {
        ++retrans;
    }

    void State(TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now)
    {
        if (now == TcpSocketState::CA_RECOVERY)
        {
            ++recoveries;
        }
        else if (now == TcpSocketState::CA_LOSS)
        {
            ++rtos;
        }
        if (trace)
        {
            std::fprintf(trace, "%.6f state %s\n", Simulator::Now().GetSeconds(),
                         TcpSocketState::TcpCongStateName[now]);
        }
    }

    void Cwnd(uint32_t, uint32_t now)
    {
        cwnd = now;
        if (trace)
        {
            std::fprintf(trace, "%.6f cwnd %u\n", Simulator::Now().GetSeconds(), now);
        }
    }

    void Pacing(DataRate, DataRate now)
    {
        std::fprintf(trace, "%.6f pacing %llu\n", Simulator::Now().GetSeconds(),
                     (unsigned long long)now.GetBitRate());
    }

    void Tx(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>)
    {
        if (p->GetSize() == 0)
        {
            return;
        }
        SequenceNumber32 end = h.GetSequenceNumber() + p->GetSize();
        if (!haveHigh || end > highEnd)
        {
            highEnd = end;
            haveHigh = true;
            sent.push_back({end, Simulator::Now().GetSeconds()});
        }
        else
        {
            resent.insert(end.GetValue());
        }
    }

    void Rx(Ptr<const Packet>, const TcpHeader& h, Ptr<const TcpSocketBase>)
    {
        if (!(h.GetFlags() & TcpHeader::ACK))
        {
            return;
        }
        ++ackSamples;
        cwndSum += cwnd;
        if (queueLength)
        {
            uint32_t q = queueLength();
            queueSum += q;
            queueMax = std::max(queueMax, q);
        }
        SequenceNumber32 ack = h.GetAckNumber();
        uint32_t popped = 0;
        while (!sent.empty() && sent.front().end <= ack)
        {
            const Sent& r = sent.front();
            if (++popped == 1 && r.end == ack && resent.find(r.end.GetValue()) == resent.end())
            {
                double sample = Simulator::Now().GetSeconds() - r.t;
                rttMin = rttSamples == 0 ? sample : std::min(rttMin, sample);
                ++rttSamples;
                rttSum += sample;
            }
            resent.erase(r.end.GetValue());
            sent.pop_front();
        }
    }

  private:
    struct Sent
    {
        SequenceNumber32 end;
        double t;
    };

    std::deque<Sent> sent;              // new data, in sending order
    std::unordered_set<uint32_t> resent; // ends of segments sent more than once
    SequenceNumber32 highEnd{0};
    bool haveHigh = false;
};

} // namespace lossy_ns3

#endif
