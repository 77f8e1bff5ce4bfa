package io.stator.core.expression;

import static io.stator.core.expression.ExpressionTestSupport.*;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.stator.core.error.DynamoDbException;
import io.stator.core.model.AttributeValue;
import io.stator.core.testing.InputTimeLimit;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Fuzz test (Jazzer) of the expression language: any text, as any of the five kinds, is parsed,
 * checked and resolved by {@link ExpressionContext} against a fixed set of #names and :values,
 * and what passes is evaluated on an item ({@link ConditionEvaluator}, {@link UpdateApplier},
 * {@link Projector}). The only failure allowed is DynamoDB's own error; in particular no
 * expression may overflow the stack (the parser bounds its depth) or hang.
 *
 * <p>An input is the kind's name on the first line ({@code CONDITION}, {@code UPDATE},
 * {@code PROJECTION}, {@code FILTER}, {@code KEY_CONDITION}), then the expression; without a
 * kind line the whole input is the expression and its length picks the kind. The corpus files
 * are thus readable, and a new seed is written by hand.
 *
 * <p>How the fuzz tests run (verify, the long {@code -Pfuzz} run, the corpus): see
 * {@code io.stator.core.key.KeyEncodingFuzzTest}.
 */
class ExpressionFuzzTest {

    private static final Map<String, String> NAMES = names(
            "#a", "a", "#b", "b", "#m", "m", "#l", "l", "#s", "ss", "#k", "key", "#x", "size", "#d", "dotted.name");

    private static final Map<String, AttributeValue> VALUES = map(
            ":s", s("abc"), ":e", s(""), ":n", n("1"), ":z", n("-0.5"), ":big", n("9.9999999999999999999999999999999999999E+125"),
            ":b", b(1, 2, 3), ":ss", ss("x", "y"), ":ns", ns("1", "2"), ":l", l(n("1"), s("a")), ":m", m("a", n("1")),
            ":t", bool(true), ":null", nul());

    private static final Map<String, AttributeValue> ITEM = map(
            "key", s("k1"), "a", s("abc"), "b", n("2"), "ss", ss("x", "z"), "ns", ns("3"),
            "l", l(n("1"), l(s("deep")), m("c", n("3"))), "m", m("a", n("1"), "l", l(s("x")), "m", m("b", bool(false))),
            "size", n("10"), "dotted.name", b(9), "t", bool(true), "nothing", nul());

    @FuzzTest
    void expressionsParseAndEvaluateOrFailWithDynamoDbErrors(byte[] input) {
        InputTimeLimit.run(input, () -> parseAndEvaluate(input));
    }

    private static void parseAndEvaluate(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        ExpressionKind kind = null;
        int newline = text.indexOf('\n');
        if (newline >= 0) {
            try {
                kind = ExpressionKind.valueOf(text.substring(0, newline).strip().toUpperCase(Locale.ROOT));
                text = text.substring(newline + 1);
            } catch (IllegalArgumentException notAKind) {
                // the whole input is the expression
            }
        }
        if (kind == null) kind = ExpressionKind.values()[input.length % ExpressionKind.values().length];
        ExpressionContext context = new ExpressionContext(NAMES, VALUES);
        try {
            switch (kind) {
                case UPDATE -> {
                    List<UpdateAction> actions = context.update(text);
                    UpdateApplier.apply(actions, ITEM);
                }
                case PROJECTION -> Projector.project(ITEM, context.projection(text));
                default -> ConditionEvaluator.matches(context.condition(kind, text), ITEM);
            }
            context.checkAllUsed();
        } catch (DynamoDbException expected) {
            // DynamoDB's answer to a bad expression (or to an update of the wrong type).
        }
    }
}
