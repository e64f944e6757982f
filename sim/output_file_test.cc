#include "sim/output_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace durasim {
namespace {

namespace fs = std::filesystem;

std::string Read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

fs::path Scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("durasim_output_file_test_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(OutputFileTest, WritesAndReplacesLeavingNoTemporaryFile) {
  const fs::path dir = Scratch("write");
  const fs::path file = dir / "report.json";
  ASSERT_TRUE(WriteFile(file.string(), "first\n").ok());
  ASSERT_TRUE(WriteFile(file.string(), "second\n").ok());
  EXPECT_EQ(Read(file), "second\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

// Strategy: a bare file name is written in the current folder, which is
// then fsynced by its name "." (the rename's durability step); a folder that
// could not be opened or fsynced fails the write.
TEST(OutputFileTest, ABareNameIsWrittenInTheCurrentFolder) {
  const fs::path dir = Scratch("bare");
  const fs::path before = fs::current_path();
  fs::current_path(dir);
  const Status written = WriteFile("bare.json", "{}\n");
  fs::current_path(before);
  ASSERT_TRUE(written.ok()) << written.message();
  EXPECT_EQ(Read(dir / "bare.json"), "{}\n");
}

// A folder that is a regular file: no write can succeed there, even as root.
TEST(OutputFileTest, AFolderThatIsAFileIsAnErrorNamingThePath) {
  const fs::path dir = Scratch("under_file");
  const fs::path blocker = dir / "not_a_folder";
  ASSERT_TRUE(WriteFile(blocker.string(), "x").ok());
  const std::string path = (blocker / "report.json").string();
  const Status written = WriteFile(path, "{}");
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.message().find(path), std::string::npos) << written.message();
  const Status created = WriteFileCreatingFolder((blocker / "sub" / "f.yaml").string(), "{}");
  ASSERT_FALSE(created.ok());
  EXPECT_NE(created.message().find("f.yaml"), std::string::npos) << created.message();
}

// The rename fails (the target is a non-empty folder): the target keeps what
// it held and the temporary file is gone.
TEST(OutputFileTest, AFailedRenameLeavesTheTargetAndNoTemporaryFile) {
  const fs::path dir = Scratch("rename");
  const fs::path target = dir / "out";
  fs::create_directories(target / "inside");
  const Status written = WriteFile(target.string(), "data");
  ASSERT_FALSE(written.ok());
  EXPECT_TRUE(fs::is_directory(target / "inside"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

TEST(OutputFileTest, CreatesTheFolder) {
  const fs::path dir = Scratch("create");
  const fs::path file = dir / "a" / "b" / "seed_1.yaml";
  ASSERT_TRUE(WriteFileCreatingFolder(file.string(), "name: x\n").ok());
  EXPECT_EQ(Read(file), "name: x\n");
}

}  // namespace
}  // namespace durasim
