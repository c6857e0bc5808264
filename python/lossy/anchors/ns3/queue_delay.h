// The bottleneck queue's sojourn times and time-weighted length, measured as lossy
// measures them (crates/lossy-core/src/net/queue_delay.rs), for `lossy ns3`'s queue
// table: a packet's sojourn runs from its acceptance by the queue (the queue disc's
// "Enqueue" trace, or with no disc the device queue's) to the start of its transmission
// (the device's "PhyTxBegin"), so below a queue disc it includes the wait in the 1-packet
// device queue, as lossy's single queue has no such split. The length counts the packets
// waiting, not the one on the wire; its time integral is the sum of every packet's time
// in the queue (Little's law): the served packets' sojourns, the waits of packets a disc
// dropped from inside its queue ("DropAfterDequeue": CoDel's drops, FQ-CoDel's overflow)
// and the waits of those still queued at the end.

#ifndef LOSSY_NS3_QUEUE_DELAY_H
#define LOSSY_NS3_QUEUE_DELAY_H

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <vector>

namespace lossy_ns3
{
using namespace ns3;

struct QueueDelay
{
    std::unordered_map<uint64_t, double> waiting; // packet uid -> when it was queued, s
    std::vector<double> sojourns;                 // of the packets served, s
    double unservedArea = 0.0;                    // packet x s of packets dropped from the queue

    // disc: the device's root queue disc, or null when the device queue is the queue.
    void Connect(Ptr<QueueDisc> disc, Ptr<PointToPointNetDevice> device)
    {
        if (disc)
        {
            disc->TraceConnectWithoutContext("Enqueue", MakeCallback(&QueueDelay::DiscEnqueue, this));
            disc->TraceConnectWithoutContext("DropAfterDequeue",
                                             MakeCallback(&QueueDelay::DiscDropAfterDequeue, this));
        }
        else
        {
            device->GetQueue()->TraceConnectWithoutContext("Enqueue",
                                                           MakeCallback(&QueueDelay::Queued, this));
        }
        device->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&QueueDelay::TxBegin, this));
    }

    void Queued(Ptr<const Packet> p) { waiting[p->GetUid()] = Simulator::Now().GetSeconds(); }

    void DiscEnqueue(Ptr<const QueueDiscItem> item) { Queued(item->GetPacket()); }

    void DiscDropAfterDequeue(Ptr<const QueueDiscItem> item, const char*)
    {
        auto it = waiting.find(item->GetPacket()->GetUid());
        if (it != waiting.end())
        {
            unservedArea += Simulator::Now().GetSeconds() - it->second;
            waiting.erase(it);
        }
    }

    void TxBegin(Ptr<const Packet> p)
    {
        auto it = waiting.find(p->GetUid());
        if (it != waiting.end())
        {
            sojourns.push_back(Simulator::Now().GetSeconds() - it->second);
            waiting.erase(it);
        }
    }

    // The nearest-rank q-quantile of the sojourns, ms (lossy's percentiles are nearest rank).
    double QuantileMs(double q)
    {
        if (sojourns.empty())
        {
            return 0.0;
        }
        std::sort(sojourns.begin(), sojourns.end());
        const size_t rank = size_t(std::ceil(q * double(sojourns.size())));
        return 1e3 * sojourns[std::max<size_t>(rank, 1) - 1];
    }

    double MeanMs() const
    {
        double sum = 0.0;
        for (double s : sojourns)
        {
            sum += s;
        }
        return sojourns.empty() ? 0.0 : 1e3 * sum / double(sojourns.size());
    }

    // The time-weighted number of packets waiting over [0, end].
    double MeanPackets(double end) const
    {
        double area = unservedArea;
        for (double s : sojourns)
        {
            area += s;
        }
        for (const auto& w : waiting)
        {
            area += end - w.second;
        }
        return end > 0 ? area / end : 0.0;
    }
};

} // namespace lossy_ns3

#endif
