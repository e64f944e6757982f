// FlussGateway: durasim's way into a real Apache Fluss cluster. Fluss has no
// C or C++ client, so this small JVM program, built on the official Java
// client (fluss-client), serves durasim's log-client port over a line protocol
// on a loopback TCP socket; store/fluss_gateway.{h,cc} is the C++ side.
//
// One request per line, one answer per line. Tokens are separated by one
// space; bytes travel as lowercase hex, the empty string as "-".
//
//   ping                          -> ok
//   create TABLE BUCKETS          -> ok TABLE_ID      (a log table; fails if it exists)
//   drop TABLE                    -> ok               (absent is fine)
//   info TABLE                    -> ok TABLE_ID BUCKETS
//   append TABLE BUCKET KEY VALUE -> ok OFFSET
//   offsets TABLE                 -> ok START0 END0 START1 END1 ...
//   read TABLE BUCKET FROM TO     -> ok COUNT OFFSET KEY VALUE ...   (offsets in [FROM, TO))
//   anything failing              -> err CODE MESSAGE
//     CODE: unavailable | not_found | invalid | range (a read past the end) | internal
//
// The log table is (bucket INT, state_key BYTES, state_payload BYTES),
// distributed by `bucket` over BUCKETS buckets: the store picks a record's
// bucket, as it picks a Kafka partition, and the gateway writes into the
// `bucket` column a value that Fluss's own bucketing (KeyEncoder +
// BucketingFunction, as its writer computes it) sends to that bucket.
//
// Offsets. Fluss's AppendResult carries no offset, so the gateway counts:
// appends are synchronous (append(row).get(), as FlussActionStateStore.put
// does) and a table is written only through this gateway. Whenever the ends
// are listed (`offsets`), each bucket's end must be its count; anything else
// (a record routed to another bucket, another writer) is an `internal`
// error naming the bucket. An append that fails may still land later (its
// future is not cancelled), so the table's state is dropped and counted
// afresh from the listed ends when it is next used. A read answers the
// range's offsets one after the other; a gap is an `internal` error.
//
// Threads: one per client connection; a table's state is used under its
// own lock, and a state dropped (drop, a failed append) answers not_found.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import org.apache.fluss.bucketing.BucketingFunction;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.client.table.scanner.log.ScanRecords;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.exception.DatabaseNotExistException;
import org.apache.fluss.exception.FlussRuntimeException;
import org.apache.fluss.exception.NetworkException;
import org.apache.fluss.exception.RetriableException;
import org.apache.fluss.exception.InvalidTableException;
import org.apache.fluss.exception.TableAlreadyExistException;
import org.apache.fluss.exception.TableNotExistException;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.encode.KeyEncoder;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.types.RowType;

public final class FlussGateway {
    private static final String DATABASE = "durasim";
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
    // How long a new table may take to have a leader for every bucket before
    // it is dropped and created again (create), CREATE_TRIES times at most:
    // within the C++ side's 60 s deadline for the whole call.
    private static final Duration TABLE_READY_TIMEOUT = Duration.ofSeconds(15);
    private static final int CREATE_TRIES = 3;
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(20);
    // A read-only call that met a connection closed under it is made again
    // (the client closes a tablet server's connection when a log scanner
    // closes, failing another thread's call in flight), RETRY_PAUSE apart:
    // this many times in all.
    private static final int TRIES = 6;
    private static final Duration RETRY_PAUSE = Duration.ofMillis(100);
    // A listOffsets answers in about 10 ms; one lost is asked again after this.
    private static final Duration LIST_OFFSETS_TIMEOUT = Duration.ofSeconds(5);
    private static final HexFormat HEX = HexFormat.of();

    /** A failure with the code the C++ side maps to its StatusCode. */
    static final class GatewayError extends Exception {
        private static final long serialVersionUID = 1L;
        final String code;
        final boolean transient_; // a connection or a leader lost: the same call may succeed again

        GatewayError(String code, String message) {
            this(code, message, false);
        }

        GatewayError(String code, String message, boolean transient_) {
            super(message);
            this.code = code;
            this.transient_ = transient_;
        }
    }

    /** One table as this gateway writes it. Used under its own lock. */
    static final class TableState {
        final TablePath path;
        final Table table;
        final AppendWriter writer;
        final long tableId;
        final int buckets;
        final int[] routeOfBucket; // a `bucket` column value that Fluss sends to bucket b
        final long[] nextOffset; // counted; checked whenever the ends are listed (checkCounted)
        boolean closed; // dropped from the gateway's tables: no longer to be used
        // A fresh log scanner per read (one that read before does not
        // reliably read again from where it is subscribed anew), closed
        // only when the table is: the 0.9.1 client closes its connection to
        // the tablet server when a scanner closes, failing other threads'
        // calls in flight.
        private final List<LogScanner> scanners = new ArrayList<>();

        LogScanner newScanner() {
            LogScanner scanner = table.newScan().createLogScanner();
            scanners.add(scanner);
            return scanner;
        }

        void close() {
            closed = true;
            for (LogScanner scanner : scanners) closeQuietly(scanner);
            closeQuietly(table);
        }

        void checkOpen() throws GatewayError {
            if (closed) throw new GatewayError("not_found", "table " + path + " was dropped or is counted afresh");
        }

        TableState(TablePath path, Table table, TableInfo info, long[] ends) throws GatewayError {
            this.path = path;
            this.table = table;
            this.tableId = info.getTableId();
            this.buckets = info.getNumBuckets();
            this.writer = table.newAppend().createWriter();
            this.routeOfBucket = routes(info.getRowType(), info.getBucketKeys(), buckets);
            this.nextOffset = ends;
        }
    }

    private final Connection connection;
    private final Admin admin; // shared by every client thread, as the client allows
    private final Map<String, TableState> tables = new ConcurrentHashMap<>();

    private FlussGateway(Connection connection) {
        this.connection = connection;
        this.admin = connection.getAdmin();
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: FlussGateway FLUSS_BOOTSTRAP PORT_FILE");
            System.exit(2);
        }
        Configuration conf = new Configuration();
        conf.setString(ConfigOptions.BOOTSTRAP_SERVERS.key(), args[0]);
        // As FlussActionStateStore: each append is sent at once.
        conf.set(ConfigOptions.CLIENT_WRITER_BATCH_TIMEOUT, Duration.ZERO);
        Connection connection = ConnectionFactory.createConnection(conf);
        FlussGateway gateway = new FlussGateway(connection);
        // The cluster answers: its servers are known and the database exists.
        gateway.admin.getServerNodes().get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        gateway.admin.createDatabase(DATABASE, DatabaseDescriptor.EMPTY, true)
                .get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Path portFile = Path.of(args[1]);
        Path tmp = Path.of(args[1] + ".tmp");
        Files.writeString(tmp, Integer.toString(server.getLocalPort()) + "\n");
        Files.move(tmp, portFile); // the start script waits for this file: written whole
        System.err.println("fluss gateway listening on 127.0.0.1:" + server.getLocalPort());
        while (true) {
            Socket socket = server.accept();
            Thread thread = new Thread(() -> gateway.serve(socket), "client-" + socket.getPort());
            thread.setDaemon(true);
            thread.start();
        }
    }

    private void serve(Socket socket) {
        try (socket;
                BufferedReader in =
                        new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
                PrintWriter out =
                        new PrintWriter(new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8))) {
            socket.setTcpNoDelay(true);
            String line;
            while ((line = in.readLine()) != null) {
                String answer;
                try {
                    answer = "ok" + handle(line.split(" ", -1));
                } catch (GatewayError e) {
                    answer = "err " + e.code + " " + oneLine(e.getMessage());
                } catch (RuntimeException e) {
                    answer = "err internal " + oneLine(e.toString());
                }
                // Every failure answered is in the gateway's log too, whole
                // (the C++ side's messages may cut it).
                if (answer.startsWith("err ")) System.err.println("fluss gateway: '" + line + "' -> " + answer);
                out.print(answer + "\n");
                out.flush();
            }
        } catch (IOException e) {
            System.err.println("fluss gateway: a client connection failed: " + e);
        }
    }

    private String handle(String[] request) throws GatewayError {
        switch (request[0]) {
            case "ping":
                arity(request, 1);
                return "";
            case "create":
                arity(request, 3);
                return " " + create(request[1], intArg(request[2], "buckets"));
            case "drop":
                arity(request, 2);
                drop(request[1]);
                return "";
            case "info": {
                arity(request, 2);
                TableState state = open(request[1]);
                return " " + state.tableId + " " + state.buckets;
            }
            case "append": {
                arity(request, 5);
                TableState state = open(request[1]);
                synchronized (state) {
                    state.checkOpen();
                    return " " + append(request[1], state, bucketArg(state, request[2]), bytes(request[3]),
                            bytes(request[4]));
                }
            }
            case "offsets": {
                arity(request, 2);
                TableState state = open(request[1]);
                long[] starts = offsets(state.path, state.buckets, new OffsetSpec.EarliestSpec());
                long[] ends;
                synchronized (state) {
                    state.checkOpen();
                    ends = offsets(state.path, state.buckets, new OffsetSpec.LatestSpec());
                    checkCounted(state, ends);
                }
                StringBuilder answer = new StringBuilder();
                for (int b = 0; b < state.buckets; b++) answer.append(' ').append(starts[b]).append(' ').append(ends[b]);
                return answer.toString();
            }
            case "read": {
                arity(request, 5);
                TableState state = open(request[1]);
                synchronized (state) {
                    state.checkOpen();
                    return read(state, bucketArg(state, request[2]), longArg(request[3], "from"),
                            longArg(request[4], "to"));
                }
            }
            default:
                throw new GatewayError("invalid", "unknown request '" + request[0] + "'");
        }
    }

    private long create(String name, int buckets) throws GatewayError {
        if (buckets < 1) throw new GatewayError("invalid", "a table needs at least one bucket, not " + buckets);
        TablePath path = TablePath.of(DATABASE, name);
        Schema schema = Schema.newBuilder()
                .column("bucket", DataTypes.INT())
                .column("state_key", DataTypes.BYTES())
                .column("state_payload", DataTypes.BYTES())
                .build();
        TableDescriptor descriptor = TableDescriptor.builder()
                .schema(schema)
                .distributedBy(buckets, "bucket")
                .comment("durasim action-state log")
                .build();
        TableState stale = tables.remove(name); // an earlier table of the name, opened before a drop raced it
        if (stale != null) {
            synchronized (stale) {
                stale.close();
            }
        }
        // Just after createTable its buckets may have no leader yet, which
        // Fluss says in more than one way (a retriable error from
        // listOffsets, "Leader not found after retry" from getTable): the
        // table is opened again until it opens. And Fluss 0.9.1's coordinator
        // now and then misses a table created a few milliseconds after
        // another was dropped: its ZooKeeper nodes are written but no leader
        // is ever elected (no "New table" in the coordinator's log; dropping
        // it later logs a NullPointerException in processDropTable). Such a
        // table is dropped and created again, a new table id, up to
        // CREATE_TRIES times.
        GatewayError last = null;
        for (int attempt = 1; attempt <= CREATE_TRIES; attempt++) {
            await(() -> admin.createTable(path, descriptor, false), "createTable " + path);
            long deadline = System.nanoTime() + TABLE_READY_TIMEOUT.toNanos();
            while (System.nanoTime() <= deadline) {
                try {
                    return open(name).tableId;
                } catch (GatewayError e) {
                    last = e;
                } catch (RuntimeException e) {
                    last = notFoundOr(e, "opening " + path);
                }
                sleep(Duration.ofMillis(50));
            }
            System.err.println("fluss gateway: table " + path + " got no leader within " + TABLE_READY_TIMEOUT
                    + " (try " + attempt + " of " + CREATE_TRIES + "): dropped to be created again");
            await(() -> admin.dropTable(path, true), "dropTable " + path + " (no leader)");
        }
        throw new GatewayError(last.code, "table " + path + " got no leader in " + CREATE_TRIES + " creations: "
                + last.getMessage());
    }

    private void drop(String name) throws GatewayError {
        TableState state = tables.remove(name);
        if (state != null) {
            synchronized (state) {
                state.close();
            }
        }
        await(() -> admin.dropTable(TablePath.of(DATABASE, name), true), "dropTable " + name);
    }

    /** The table's state, opened on first use (the counted offsets start at its ends). */
    private TableState open(String name) throws GatewayError {
        TableState state = tables.get(name);
        if (state != null) return state;
        TablePath path = TablePath.of(DATABASE, name);
        if (!await(() -> admin.tableExists(path), "tableExists " + path)) {
            throw new GatewayError("not_found", "no table " + path);
        }
        Table table;
        try {
            table = connection.getTable(path);
        } catch (RuntimeException e) {
            throw notFoundOr(e, "getTable " + path);
        }
        TableState opened;
        try {
            TableInfo info = table.getTableInfo();
            long[] ends = offsets(path, info.getNumBuckets(), new OffsetSpec.LatestSpec());
            opened = new TableState(path, table, info, ends);
        } catch (GatewayError | RuntimeException e) {
            closeQuietly(table);
            throw e;
        }
        TableState raced = tables.putIfAbsent(name, opened);
        if (raced == null) return opened;
        closeQuietly(table);
        return raced;
    }

    private String append(String name, TableState state, int bucket, byte[] key, byte[] value)
            throws GatewayError {
        GenericRow row = GenericRow.of(state.routeOfBucket[bucket], key, value);
        try {
            await(() -> state.writer.append(row), "append to " + state.path + " bucket " + bucket);
        } catch (GatewayError e) {
            // The record may still land: the counts are no longer to be trusted.
            tables.remove(name, state);
            state.close();
            throw e;
        }
        return Long.toString(state.nextOffset[bucket]++);
    }

    /**
     * The offsets answered to appends were counted: each bucket's end must be
     * its count. Checked whenever ends are listed (an append checking it would
     * take a listOffsets call, three times the append's own time).
     */
    private static void checkCounted(TableState state, long[] ends) throws GatewayError {
        for (int b = 0; b < state.buckets; b++) {
            if (ends[b] != state.nextOffset[b]) {
                throw new GatewayError("internal", String.format(
                        "%s bucket %d ends at %d, but this gateway appended up to %d: a record went to another"
                                + " bucket or another writer appended, so the offsets answered are not to be trusted",
                        state.path, b, ends[b], state.nextOffset[b]));
            }
        }
    }

    private String read(TableState state, int bucket, long from, long to) throws GatewayError {
        for (int attempt = 1; ; attempt++) {
            try {
                return readOnce(state, bucket, from, to);
            } catch (GatewayError e) {
                if (!e.transient_ || attempt == TRIES) throw e;
                sleep(RETRY_PAUSE);
            }
        }
    }

    private String readOnce(TableState state, int bucket, long from, long to) throws GatewayError {
        if (from < 0 || to < from) throw new GatewayError("invalid", "bad range [" + from + ", " + to + ")");
        // The end is known without asking: only this gateway writes the table.
        if (to > state.nextOffset[bucket]) {
            throw new GatewayError("range", String.format("%s bucket %d [%d, %d): the log ends at offset %d, before"
                    + " the end of the range", state.path, bucket, from, to, state.nextOffset[bucket]));
        }
        List<String> records = new ArrayList<>();
        if (from < to) {
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            LogScanner scanner = state.newScanner();
            try {
                scanner.subscribe(bucket, from);
                long next = from;
                while (next < to) {
                    if (System.nanoTime() > deadline) {
                        throw new GatewayError("unavailable", String.format(
                                "reading %s bucket %d [%d, %d) stopped at %d after %s", state.path, bucket, from,
                                to, next, READ_TIMEOUT));
                    }
                    ScanRecords polled = scanner.poll(POLL);
                    for (ScanRecord record : polled.records(new TableBucket(state.tableId, bucket))) {
                        long offset = record.logOffset();
                        if (offset < next || offset >= to) continue;
                        if (offset != next) {
                            throw new GatewayError("internal", String.format(
                                    "reading %s bucket %d [%d, %d): offset %d came after %d, a gap in a log table",
                                    state.path, bucket, from, to, offset, next - 1));
                        }
                        next = offset + 1;
                        InternalRow row = record.getRow();
                        records.add(offset + " " + hex(row.getBytes(1)) + " " + hex(row.getBytes(2)));
                    }
                }
            } catch (RuntimeException e) {
                throw notFoundOr(e, "reading " + state.path + " bucket " + bucket);
            } finally {
                unsubscribeQuietly(scanner, bucket);
            }
        }
        StringBuilder answer = new StringBuilder(" ").append(records.size());
        for (String record : records) answer.append(' ').append(record);
        return answer.toString();
    }

    private long[] offsets(TablePath path, int buckets, OffsetSpec spec) throws GatewayError {
        List<Integer> all = new ArrayList<>();
        for (int b = 0; b < buckets; b++) all.add(b);
        return offsets(path, spec, all);
    }

    private long[] offsets(TablePath path, OffsetSpec spec, List<Integer> buckets) throws GatewayError {
        Map<Integer, Long> answer = null;
        for (int attempt = 1; answer == null; attempt++) {
            try {
                answer = await(() -> admin.listOffsets(path, buckets, spec).all(), "listOffsets " + path,
                        LIST_OFFSETS_TIMEOUT);
            } catch (GatewayError e) {
                if (!e.transient_ || attempt == TRIES) throw e;
                sleep(RETRY_PAUSE);
            }
        }
        long[] offsets = new long[buckets.size()];
        for (int i = 0; i < buckets.size(); i++) {
            Long offset = answer.get(buckets.get(i));
            if (offset == null) {
                throw new GatewayError("internal", "listOffsets " + path + " left out bucket " + buckets.get(i));
            }
            offsets[i] = offset;
        }
        return offsets;
    }

    /** For each bucket, the smallest `bucket` value Fluss's own bucketing sends there. */
    private static int[] routes(RowType rowType, List<String> bucketKeys, int buckets) throws GatewayError {
        KeyEncoder encoder = KeyEncoder.ofBucketKeyEncoder(rowType, bucketKeys, null);
        BucketingFunction bucketing = BucketingFunction.of(null);
        int[] route = new int[buckets];
        int found = 0;
        java.util.Arrays.fill(route, -1);
        for (int value = 0; found < buckets && value < 1_000_000; value++) {
            int bucket = bucketing.bucketing(encoder.encodeKey(GenericRow.of(value, null, null)), buckets);
            if (route[bucket] < 0) {
                route[bucket] = value;
                found++;
            }
        }
        if (found < buckets) throw new GatewayError("internal", "no bucket value found for every one of " + buckets);
        return route;
    }

    private static void unsubscribeQuietly(LogScanner scanner, int bucket) {
        try {
            scanner.unsubscribe(bucket);
        } catch (RuntimeException e) {
            System.err.println("fluss gateway: unsubscribing bucket " + bucket + " failed: " + e);
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            System.err.println("fluss gateway: closing " + closeable + " failed: " + e);
        }
    }

    private static void sleep(Duration duration) throws GatewayError {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GatewayError("unavailable", "interrupted");
        }
    }

    /** The call's answer; the call may fail before it returns a future, too (metadata updates fail so). */
    private static <T> T await(Supplier<CompletableFuture<T>> call, String what) throws GatewayError {
        return await(call, what, CALL_TIMEOUT);
    }

    private static <T> T await(Supplier<CompletableFuture<T>> call, String what, Duration timeout)
            throws GatewayError {
        try {
            return call.get().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            throw notFoundOr(e, what);
        } catch (TimeoutException e) {
            // Transient: the 0.9.1 client may lose a request whose connection
            // another thread's scanner closed; only a read-only call is made again.
            throw new GatewayError("unavailable", what + " got no answer within " + timeout, true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GatewayError("unavailable", what + " was interrupted");
        } catch (ExecutionException e) {
            throw notFoundOr(e.getCause(), what);
        }
    }

    private static GatewayError notFoundOr(Throwable e, String what) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof TableNotExistException || cause instanceof DatabaseNotExistException) {
                return new GatewayError("not_found", what + ": " + cause.getMessage());
            }
            if (cause instanceof TableAlreadyExistException || cause instanceof InvalidTableException) {
                return new GatewayError("invalid", what + ": " + cause.getMessage());
            }
        }
        boolean transient_ = false;
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            transient_ |= cause instanceof NetworkException || cause instanceof RetriableException;
        }
        String code = e instanceof FlussRuntimeException || transient_ ? "unavailable" : "internal";
        return new GatewayError(code, what + " failed: " + e, transient_);
    }

    private static void arity(String[] request, int tokens) throws GatewayError {
        if (request.length != tokens) {
            throw new GatewayError("invalid", "'" + request[0] + "' takes " + (tokens - 1) + " arguments, not "
                    + (request.length - 1));
        }
    }

    private static int bucketArg(TableState state, String text) throws GatewayError {
        int bucket = intArg(text, "bucket");
        if (bucket < 0 || bucket >= state.buckets) {
            throw new GatewayError("invalid", state.path + " has no bucket " + bucket + " (it has " + state.buckets + ")");
        }
        return bucket;
    }

    private static int intArg(String text, String what) throws GatewayError {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new GatewayError("invalid", what + " '" + text + "' is not an integer");
        }
    }

    private static long longArg(String text, String what) throws GatewayError {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new GatewayError("invalid", what + " '" + text + "' is not an integer");
        }
    }

    private static byte[] bytes(String hex) throws GatewayError {
        if (hex.equals("-")) return new byte[0];
        try {
            return HEX.parseHex(hex);
        } catch (IllegalArgumentException e) {
            throw new GatewayError("invalid", "'" + hex + "' is not hex");
        }
    }

    private static String hex(byte[] bytes) {
        return bytes.length == 0 ? "-" : HEX.formatHex(bytes);
    }

    private static String oneLine(String message) {
        return message == null ? "" : message.replace('\n', ' ').replace('\r', ' ');
    }
}
