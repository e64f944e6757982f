// The divergence-eviction mutants' stores, one per design.
#include "properties/mutants/divergence_eviction.h"

namespace durasim {

StoreFactory DivergenceEvictionStores() {
  return StoreByDesign(StoreOf<DivergenceEvicting<KafkaActionStateStore>>(),
                       StoreOf<DivergenceEvicting<FlussActionStateStore>>());
}

StoreFactory EvictionOnEveryGetStores() {
  return StoreByDesign(StoreOf<EvictingOnEveryGet<KafkaActionStateStore>>(),
                       StoreOf<EvictingOnEveryGet<FlussActionStateStore>>());
}

}  // namespace durasim
