// Status and Result<T>: the one error type at every module edge.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "store/check.h"

namespace durasim {

enum class StatusCode {
  kOk,
  kInvalidArgument,   // bad input: scenario file, flag, record
  kNotPersisted,      // a write the log definitely does not hold
  kPossiblyPersisted, // a write whose outcome is unknown (acknowledgement lost)
  kCancelled,         // the caller's wait was cancelled
  kUnavailable,       // the broker cannot be reached
  kInvalidRecovery,   // recovery data (marker, record) is not usable
  kNotFound,
  kInternal,
  kCallFailed,        // a durable call raised and its action does not handle the failure
};

const char* StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "<code name>: <message>", or "ok".
  std::string ToString() const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// A value or the error that prevented it.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  // REQUIRES: `status` is an error: a Result holds a value or an error.
  Result(Status status) : value_(std::move(status)) { DURASIM_CHECK(!std::get<Status>(value_).ok()); }

  bool ok() const { return std::holds_alternative<T>(value_); }
  const Status& status() const {
    static const Status kOkStatus;
    return ok() ? kOkStatus : std::get<Status>(value_);
  }
  // REQUIRES (all accessors): ok().
  T& value() & {
    DURASIM_CHECK(ok());
    return std::get<T>(value_);
  }
  const T& value() const& {
    DURASIM_CHECK(ok());
    return std::get<T>(value_);
  }
  T&& value() && {
    DURASIM_CHECK(ok());
    return std::get<T>(std::move(value_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> value_;
};

}  // namespace durasim
