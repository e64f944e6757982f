// StoreDesign: which action-state store design a run checks, and the
// options a store is built with. The designs differ in how a checkpoint's
// recovery marker makes a restore see every state an unfinished action
// still needs (docs/store-designs.md):
//   kKafkaRewind   the marker of a partition is rewound to the oldest cached
//                  record of an unfinished action (durasim's fix of
//                  apache/flink-agents #1158; not read upstream);
//   kKafkaRewrite  at snapshot every unfinished action's latest state is
//                  written again, and the marker is the end offsets taken
//                  before those writes, so each lies at or after it (#1175);
//                  the checkpoint is declined unless every rewrite is
//                  acknowledged;
//   kFluss         Flink Agents 0.3.0's store on a Fluss log table
//                  (store/fluss_action_state_store.h): a bucket-offset
//                  marker without version or table identity, rewound as
//                  kKafkaRewind's; buckets never change, and a log table
//                  holds no tombstones.
#pragma once

namespace durasim {

enum class StoreDesign {
  kKafkaRewind,
  kKafkaRewrite,
  kFluss,
};

struct StoreOptions {
  StoreDesign design = StoreDesign::kKafkaRewind;
  // Flink Agents' opt-in tombstones: prune appends an empty value for every
  // state it drops.
  bool tombstones = false;
  // With tombstones, a prune first appends its key's cleanup record, so the
  // boundary outlives the tombstones where compaction removes them.
  bool cleanup_records = false;
  // The real Kafka store's check since apache/flink-agents #1101: a marker
  // that names fewer partitions than the topic has (partitions were added
  // after the checkpoint) is rejected. Off, durasim's choice: the added
  // partitions are read from offset 0 (docs/scenarios.md, `store_options`).
  bool reject_added_partitions = false;
  // The real get() of Flink Agents' Kafka (main 8ad3a32) and Fluss (0.3.0)
  // stores: a lookup of a state that is not cached, or of a (key, seq) with
  // more than one cached state ("divergence"), first evicts every cached
  // state with a higher sequence number, of every key (docs/findings.md,
  // finding 1). Off, durasim's choice: a lookup never changes the cache.
  bool evict_on_divergence = false;
};

}  // namespace durasim
