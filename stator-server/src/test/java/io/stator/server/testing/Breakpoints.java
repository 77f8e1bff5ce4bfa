package io.stator.server.testing;

import com.sun.jdi.Bootstrap;
import com.sun.jdi.IncompatibleThreadStateException;
import com.sun.jdi.Method;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.StackFrame;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.VMDisconnectedException;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.AttachingConnector;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.IllegalConnectorArgumentsException;
import com.sun.jdi.event.BreakpointEvent;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.request.BreakpointRequest;
import com.sun.jdi.request.EventRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@link StatorProcess} stopped at a chosen point of its code, through the Java Debug Interface,
 * so that a test can {@code kill -9} it exactly there rather than at a random instant: between
 * two commits of one operation, say, where a crash once left a table stuck. The process runs with
 * the JVM's debug agent ({@link #JVM_OPTION}); the test sets a breakpoint on a method, and each
 * time a thread enters it with a given method on its stack (the operation's), counts it; at the
 * count asked for, the thread (or the whole process) stays stopped, and the test kills it.
 */
public final class Breakpoints implements AutoCloseable {

    /** The JVM option that gives a {@link StatorProcess} its debug agent, on a free port. */
    public static final String JVM_OPTION = "-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:0";

    private final VirtualMachine vm;
    private final List<BreakpointRequest> requests = new ArrayList<>();

    private Breakpoints(VirtualMachine vm) {
        this.vm = vm;
    }

    static Breakpoints attach(int port) {
        AttachingConnector socket = Bootstrap.virtualMachineManager().attachingConnectors().stream()
                .filter(c -> c.name().equals("com.sun.jdi.SocketAttach")).findFirst().orElseThrow();
        Map<String, Connector.Argument> arguments = socket.defaultArguments();
        arguments.get("hostname").setValue("127.0.0.1");
        arguments.get("port").setValue(Integer.toString(port));
        try {
            return new Breakpoints(socket.attach(arguments));
        } catch (IOException | IllegalConnectorArgumentsException e) {
            throw new IllegalStateException("could not attach to the server's debug agent on port " + port, e);
        }
    }

    /**
     * Stops in every method of that name of the (loaded) class, each time it is entered, until
     * {@link #await} lets the thread go on.
     */
    public Breakpoints on(String className, String methodName) {
        List<ReferenceType> types = vm.classesByName(className);
        if (types.isEmpty()) throw new IllegalStateException(className + " is not loaded in the server");
        for (Method m : types.get(0).methodsByName(methodName)) {
            if (m.location() == null) continue; // abstract
            BreakpointRequest r = vm.eventRequestManager().createBreakpointRequest(m.location());
            r.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
            r.enable();
            requests.add(r);
        }
        if (requests.isEmpty()) throw new IllegalStateException("no method " + methodName + " in " + className);
        return this;
    }

    /** Where a breakpoint was hit: the thread's name and its stack, innermost first ("Class.method"). */
    public record Hit(String thread, List<String> stack) {
        /** Whether a method of that class (by its full name, or a prefix of it) is on the stack. */
        public boolean within(String classNamePrefix) {
            return stack.stream().anyMatch(f -> f.startsWith(classNamePrefix));
        }
    }

    /** Which hits count. */
    @FunctionalInterface
    public interface Counted {
        boolean test(Hit hit);
    }

    /**
     * Lets threads through the breakpoints until the {@code nth} hit that counts; that thread
     * (with {@code wholeProcess}, every thread) then stays stopped, and without
     * {@code wholeProcess} the breakpoints are gone, so the other threads run on unhindered.
     * Returns that hit, or null when none came within {@code timeout} (the operation ended
     * before its nth).
     */
    public Hit await(Counted counted, int nth, boolean wholeProcess, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int seen = 0;
        while (true) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) return null;
            EventSet events = vm.eventQueue().remove(left);
            if (events == null) return null;
            Hit stopped = null;
            for (Event e : events) {
                if (!(e instanceof BreakpointEvent hit)) continue;
                Hit h = hitOf(hit.thread());
                if (counted.test(h) && ++seen == nth) stopped = h;
            }
            if (stopped == null) {
                events.resume();
                continue;
            }
            if (wholeProcess) {
                vm.suspend();
                return stopped;
            }
            // Only that thread stays stopped: the breakpoints go, and threads stopped at them meanwhile go on.
            for (BreakpointRequest r : requests) r.disable();
            EventSet pending;
            while ((pending = vm.eventQueue().remove(200)) != null) pending.resume();
            return stopped;
        }
    }

    private static Hit hitOf(ThreadReference thread) {
        List<String> stack = new ArrayList<>();
        try {
            for (StackFrame f : thread.frames()) {
                stack.add(f.location().declaringType().name() + "." + f.location().method().name());
            }
        } catch (IncompatibleThreadStateException e) {
            throw new IllegalStateException("a thread stopped at a breakpoint is suspended", e);
        }
        return new Hit(thread.name(), stack);
    }

    /**
     * Lets everything go on: no more breakpoints, every thread resumed (a test that only watched
     * a run, to count its hits).
     */
    public void release() {
        for (BreakpointRequest r : requests) r.disable();
        requests.clear();
        vm.resume();
    }

    @Override
    public void close() {
        try {
            vm.dispose();
        } catch (VMDisconnectedException e) {
            // The server was killed: nothing to detach from.
        }
    }
}
