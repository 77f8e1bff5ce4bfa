package io.stator.core.expression;

import java.util.List;

/**
 * An expression as parsed, before its placeholders are resolved: the same for every request that
 * sends the same text, so it is cached by text ({@link ExpressionCache}).
 *
 * @param condition              the condition (condition kinds), else null
 * @param updateActions          the actions in the order written (UpdateExpression), else null
 * @param projection             the paths (ProjectionExpression), else null
 * @param redundantParentheses   parentheses directly around a parenthesized expression were seen
 * @param repeatedClause         the first SET/REMOVE/ADD/DELETE keyword used twice, else null
 * @param operatorCount          comparators, AND, OR, NOT, BETWEEN, IN, + and -
 * @param largestInList          the most operands of any IN list
 */
public record ParsedExpression(ExpressionKind kind, String text, Condition condition,
                               List<UpdateAction> updateActions, List<Path> projection,
                               boolean redundantParentheses, String repeatedClause, int operatorCount,
                               int largestInList) {}
