#include "util/progress.h"

#include <unistd.h>

#include <cmath>

namespace kessel {

namespace {
std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const long s = std::lround(seconds);
  char buf[32];
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  }
  return buf;
}
}  // namespace

Progress::Progress(std::string label, std::int64_t total, std::FILE* out, double plain_interval_s)
    : label_(std::move(label)),
      total_(total),
      out_(out),
      tty_(out != nullptr && isatty(fileno(out))),
      plain_interval_s_(plain_interval_s),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

Progress::~Progress() {
  if (!finished_ && tty_ && done_ > 0) std::fputc('\n', out_);
}

void Progress::update(std::int64_t done, const std::string& extra) {
  done_ = done;
  if (!out_) return;
  const auto now = std::chrono::steady_clock::now();
  const double since = std::chrono::duration<double>(now - last_draw_).count();
  if (tty_ ? since < 0.1 : since < plain_interval_s_) return;
  last_draw_ = now;
  draw(false, extra);
}

void Progress::finish(const std::string& extra) {
  if (finished_) return;
  finished_ = true;
  if (out_) draw(true, extra);
}

void Progress::draw(bool final_line, const std::string& extra) {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done_) / elapsed : 0.0;
  std::string line = label_;
  if (total_ > 0) {
    const double frac = std::min(1.0, static_cast<double>(done_) / static_cast<double>(total_));
    if (tty_) {
      const int width = 24, filled = static_cast<int>(frac * width);
      line += " [" + std::string(filled, '#') + std::string(width - filled, '.') + "]";
    }
    char buf[128];
    std::snprintf(buf, sizeof buf, " %lld/%lld %3.0f%% | %.1f it/s | %s %s",
                  static_cast<long long>(done_), static_cast<long long>(total_), 100.0 * frac, rate,
                  final_line ? "took" : "ETA",
                  format_duration(final_line ? elapsed
                                             : (rate > 0 ? (total_ - done_) / rate : NAN))
                      .c_str());
    line += buf;
  } else {
    char buf[96];
    std::snprintf(buf, sizeof buf, " %lld | %.1f it/s | %s", static_cast<long long>(done_), rate,
                  format_duration(elapsed).c_str());
    line += buf;
  }
  if (!extra.empty()) line += " | " + extra;
  if (tty_) {
    std::fprintf(out_, "\r\033[K%s%s", line.c_str(), final_line ? "\n" : "");
  } else {
    std::fprintf(out_, "%s\n", line.c_str());
  }
  std::fflush(out_);
}

}  // namespace kessel
