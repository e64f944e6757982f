// SinkBackend: what a ClientRecordSink asks of the backend that made it:
// the broker brought back up before a call, the run's infrastructure
// failures noted, each appended record reported once, the broker's own
// write faults, and the name the run's topic goes by. RdKafkaBackend is the
// one implementation; the sink knows its backend only through this, so the
// backend can build sinks without the two units including each other.
//
// Outside model/'s determinism contract, like every librdkafka backend.
//
// Thread-safety: none; called on the thread that drives the run.
#pragma once

#include <cstdint>
#include <string>

#include "model/backends/log_backend.h"
#include "store/log_client.h"
#include "store/status.h"

namespace durasim {

class SinkBackend {
 public:
  virtual ~SinkBackend() = default;

  // Brings a broker taken down back up; a no-op when it is up. After an
  // infrastructure failure it fails at once with it.
  virtual Status EnsureBrokerUp() = 0;
  // Passes `status` on, noting it as the run's infrastructure failure when
  // it is one (RdKafkaBackend::Note says which); `during` names the call,
  // `write` says it was an ordinary append.
  virtual Status Note(Status status, const std::string& during, bool write) = 0;
  Status Note(Status status, const std::string& during) { return Note(std::move(status), during, false); }
  template <typename T>
  Result<T> Note(Result<T> result, const std::string& during, bool write = false) {
    if (!result.ok()) (void)Note(result.status(), during, write);
    return result;
  }
  // Reports `record` to the listening incarnation unless it was reported.
  virtual void Report(const LogRecord& record, AppendSeen seen) = 0;
  // The broker's write faults. REQUIRES (both): the broker has controls
  // for them (RdKafkaBackend::has_write_fault_controls).
  virtual Status RefuseNextProduce() = 0;
  virtual Result<RecordPosition> AppendLosingAck(int32_t partition, std::string key, std::string value) = 0;
  // The name the run's topic goes by, whichever topic holds it now.
  virtual const std::string& topic_name() const = 0;
};

}  // namespace durasim
