// Tests of the Fluss gateway's client that need no cluster.
// Strategy: binary bytes (0xff, NUL) survive the hex round trip, the empty
// string is "-", and what is not hex (odd length, another letter) is
// refused; no gateway at an address is unavailable, naming it, within the
// deadline, and an address that is not HOST:PORT is invalid.
#include "store/fluss_gateway.h"

#include <gtest/gtest.h>

#include <string>

namespace durasim {
namespace {

TEST(GatewayHexTest, BytesRoundTripThroughHexAndTheEmptyStringIsADash) {
  const std::string bytes("\xff" "long:7\0x", 9);
  EXPECT_EQ(GatewayHex(""), "-");
  EXPECT_EQ(GatewayHex("\x01\xab"), "01ab");
  Result<std::string> back = GatewayBytes(GatewayHex(bytes));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, bytes);
  EXPECT_EQ(*GatewayBytes("-"), "");
  EXPECT_FALSE(GatewayBytes("abc").ok());
  EXPECT_FALSE(GatewayBytes("zz").ok());
}

TEST(FlussGatewayDownTest, NoGatewayIsUnavailableAndABadAddressInvalid) {
  // Port 1 on loopback: nothing listens there.
  Result<std::unique_ptr<FlussGateway>> down = FlussGateway::Connect("127.0.0.1:1", std::chrono::seconds(2));
  EXPECT_EQ(down.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(down.status().message().find("127.0.0.1:1"), std::string::npos);
  EXPECT_EQ(FlussGateway::Connect("localhost", std::chrono::seconds(2)).status().code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace durasim
