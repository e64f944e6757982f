// The key-to-string mutant's stores, one per design.
#include "properties/mutants/key_to_string.h"

namespace durasim {

StoreFactory KeyToStringStores() {
  return StoreByDesign(StoreOf<KeyToString<KafkaActionStateStore>>(), StoreOf<KeyToString<FlussActionStateStore>>());
}

}  // namespace durasim
